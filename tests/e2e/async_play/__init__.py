"""Through Discord: tables played across days — each seat's clock shown as a
Discord timestamp, reminders at half time and a tenth left (once each), quiet
hours, the host's pause, vacation, substitutes, undo with consent, /tables across
two servers, /settings me — each on its own, and all together in one landed game."""
