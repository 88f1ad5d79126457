"""How long an idle channel-layer receive lasts on Redis: with redis-py's defaults, and with the
options config/settings.py sets (issue 9; channels_redis #422, redis-py #4091).

Run: `REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/redis_idle.py` (`--seconds N`).
An idle websocket's consumer waits exactly like this, in channels-redis's 5 s BZPOPMIN; an error
here is the consumer's end (1011 before issue 9). `make test` runs it for 1 s on its Redis
(tests/test_benches.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


async def idle_receive(hosts: list, seconds: float) -> str:
    """Wait for a message that never comes; say how it ended and after how long."""
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=hosts)
    channel = await layer.new_channel()
    started = time.monotonic()
    try:
        await asyncio.wait_for(layer.receive(channel), seconds)
    except Exception as error:
        waited = time.monotonic() - started
        if type(error) is TimeoutError:  # asyncio.wait_for's own: the wait was never cut short
            return f"no error in {waited:.1f} s"
        return f"{type(error).__module__}.{type(error).__name__} after {waited:.1f} s: {error}"
    finally:
        await layer.flush()
    return "a message came (another process uses this channel?)"


def settings_hosts() -> list:
    """The `hosts` of config/settings.py's channel layer (REDIS_URL must be set)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from config import settings

    return settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to stay idle (default 20)")
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL")
    if not url:
        sys.exit("Set REDIS_URL, e.g. redis://127.0.0.1:6379/0")
    import redis

    print(f"redis-py {redis.__version__}, idle for up to {args.seconds:g} s on {url}")
    print(f"  redis-py defaults ([REDIS_URL]):  {asyncio.run(idle_receive([url], args.seconds))}")
    print(f"  config/settings.py options:       {asyncio.run(idle_receive(settings_hosts(), args.seconds))}")


if __name__ == "__main__":
    main()
