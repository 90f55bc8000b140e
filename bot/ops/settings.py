"""Configuration from the environment (or a ``.env`` file)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="The bot token (for `gametable run`).")
    redis_url: str | None = Field(
        default=None, description="Redis to keep tables in. Unset: an embedded redis-server under DATA_DIR."
    )
    data_dir: Path = Field(default=Path("data"), description="Where the embedded Redis keeps its files.")
    turn_timeout: float = Field(
        default=24 * 3600.0, gt=0, description="Seconds a seat may take before its default move."
    )
    sweep_interval: float = Field(default=15.0, gt=0, description="Seconds between checks for late seats.")
    outbox_interval: float = Field(
        default=2.0, gt=0, description="Seconds between retries of announcements that could not be sent."
    )
    dev_guild_id: int | None = Field(
        default=None, description="Sync slash commands to this guild only (instant, for development)."
    )
    retention_days: float = Field(
        default=30.0, gt=0, description="Days a finished or abandoned table (archived) is kept."
    )
    lobby_idle_days: float = Field(default=7.0, gt=0, description="Days an untouched lobby is kept.")
    metrics_port: int | None = Field(
        default=None, description="Serve /metrics (Prometheus) and /healthz on this port. Unset: off."
    )
    metrics_host: str = Field(
        default="127.0.0.1", description="Address for METRICS_PORT (0.0.0.0 in a container)."
    )
    web_port: int | None = Field(
        default=None,
        description="Serve the web pages (tables, replays, tournaments, players) on this port. Unset: off.",
    )
    web_host: str = Field(default="127.0.0.1", description="Address for WEB_PORT (0.0.0.0 in a container).")
    public_url: str | None = Field(
        default=None,
        description="Where readers reach the web pages, e.g. https://games.example.org (for posted links).",
    )
    shard_count: int | None = Field(default=None, description="Total shards across all bot processes.")
    shard_ids: list[int] | None = Field(default=None, description="Shards this process runs, e.g. [0,1].")
    log_level: str = Field(default="INFO", description="Python logging level.")
    log_json: bool = Field(default=False, description="Log one JSON object per line (for production).")
