"""What Discord shows and what a press does: embeds, restart-proof buttons and
selects, the flows behind them, the table lists, the undo vote, the
tournament desk. They may import ``bot.render``, the service, tournaments and
storage, and see the bot only through small protocols or
``bot.app.hosting``; never ``bot.app.application`` or the cogs."""
