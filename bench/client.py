"""CPU per Bot API call of the bot's HTTP client (aiohttp) and of httpx, a benchmark.

python-telegram-bot's send_message, 20 at a time, against a minimal server in another process
on 127.0.0.1, so only the client's work is counted. Prints the median of several rounds.
It checks no target: its figures compare the two clients.

    .venv/bin/python bench/client.py [--calls 3000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import time
from multiprocessing.queues import Queue

from aiohttp import web
from telegram import Bot
from telegram.request import BaseRequest, HTTPXRequest

from gaple_bot.bot.http import AiohttpRequest

AT_ONCE = 20
MESSAGE = {"message_id": 1, "date": 0, "chat": {"id": 5, "type": "private"}, "text": "x"}
ME = {"id": 1, "is_bot": True, "first_name": "Bench", "username": "bench_bot"}


def serve(ports: Queue[int]) -> None:
    """Answer every call as Telegram would a sendMessage (getMe with the bot)."""
    message = json.dumps({"ok": True, "result": MESSAGE}).encode()
    me = json.dumps({"ok": True, "result": ME}).encode()

    async def answer(request: web.Request) -> web.Response:
        await request.read()
        body = me if request.path.endswith("/getMe") else message
        return web.Response(body=body, content_type="application/json")

    async def main() -> None:
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", answer)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        ports.put(int(runner.addresses[0][1]))
        await asyncio.Event().wait()

    asyncio.run(main())


async def cpu_per_call(request: BaseRequest, port: int, calls: int) -> float:
    """Milliseconds of this process's CPU per send_message."""
    bot = Bot("1:bench", base_url=f"http://127.0.0.1:{port}/bot", request=request)
    await bot.initialize()
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(n: int) -> None:
        async with gate:
            await bot.send_message(5, f"message {n}", parse_mode="HTML")

    start = time.process_time()
    await asyncio.gather(*(one(n) for n in range(calls)))
    spent = time.process_time() - start
    await bot.shutdown()
    return spent / calls * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000, help="per round (default 3000)")
    parser.add_argument("--rounds", type=int, default=5, help="of each client (default 5)")
    args = parser.parse_args()
    ports: Queue[int] = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(ports,), daemon=True)
    server.start()
    port = ports.get(timeout=30)
    try:
        figures: dict[str, list[float]] = {"httpx": [], "aiohttp": []}
        for _ in range(args.rounds):
            figures["httpx"].append(asyncio.run(cpu_per_call(HTTPXRequest(), port, args.calls)))
            figures["aiohttp"].append(asyncio.run(cpu_per_call(AiohttpRequest(), port, args.calls)))
    finally:
        server.terminate()
    medians = {name: statistics.median(values) for name, values in figures.items()}
    for name, value in medians.items():
        print(f"{name:22} {value:.3f} ms CPU per sendMessage (median of {args.rounds})")
    print(f"httpx / aiohttp (the bot's client): {medians['httpx'] / medians['aiohttp']:.1f}")


if __name__ == "__main__":
    main()
