"""The lobby's expiry timer: a lobby nobody starts closes by itself and says so."""

from __future__ import annotations

from telegram.ext import JobQueue

from .deps import Deps, GapleContext


def lobby_job_name(game_id: int) -> str:
    """The name of a lobby's expiry job (so it can be found again)."""
    return f"lobby:{game_id}"


def arm_lobby_expiry(job_queue: JobQueue[GapleContext], game_id: int, seconds: float) -> None:
    """Close the lobby after `seconds` unless it starts first."""
    cancel_lobby_expiry(job_queue, game_id)
    job_queue.run_once(
        lobby_expired, when=max(0.0, seconds), name=lobby_job_name(game_id), data=game_id
    )


def cancel_lobby_expiry(job_queue: JobQueue[GapleContext], game_id: int) -> None:
    """Remove a lobby's pending expiry."""
    for job in job_queue.get_jobs_by_name(lobby_job_name(game_id)):
        job.schedule_removal()


async def lobby_expired(context: GapleContext) -> None:
    """Nobody started the lobby in time: close it."""
    assert context.job is not None and isinstance(context.job.data, int)
    await expire_lobby(context.deps, context.job.data)


async def expire_lobby(deps: Deps, game_id: int) -> None:
    """Close the lobby and say so, unless it started or closed meanwhile (then nothing
    happens, so a second timer for one lobby is harmless)."""
    # The expired lobby is shown with the outcome.
    await deps.service.commands.expire(game_id)
