"""Errors of a run: bad input (:class:`RunError`), a run folder that cannot be written
(:class:`RunWriteError`) and an interrupted run (:class:`RunInterrupted`)."""


class RunError(ValueError):
    """Bad run input: unknown hero, loadout, battlefield or AI profile, a games count that
    is not positive, an unusable output folder, or a run folder with other settings.

    ``param`` names the command-line option at fault (``"--heroes"``, ``"--out"``, ...)
    or is None.
    """

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


class RunInterrupted(Exception):
    """The run was interrupted (Ctrl-C); every finished chunk is saved.

    ``run_dir``, ``games_done`` / ``games_total`` (games), ``chunks_done`` / ``chunks_total``.
    """

    def __init__(self, run_dir, games_done, games_total, chunks_done, chunks_total):
        super().__init__(f"interrupted: {games_done} of {games_total} games ({chunks_done} of {chunks_total} chunks) "
                         f"saved in {run_dir}; rerun the same command to resume")
        self.run_dir, self.games_done, self.games_total = run_dir, games_done, games_total
        self.chunks_done, self.chunks_total = chunks_done, chunks_total


class RunWriteError(RunError):
    """The run folder could not be written while playing (a full disk, a folder made
    read-only, a lost network drive). Not a usage error: the options were fine. The
    message is one line saying what failed, how many games are stored and that rerunning
    the same command resumes. ``run_dir``, ``games_stored`` and ``games_total`` (games),
    ``errno`` (the OSError's, or None); ``param`` is ``"--out"``."""

    def __init__(self, run_dir, err: OSError, games_stored: int, games_total: int, compacting: bool = False):
        what = err.strerror or str(err)
        doing = "compacting" if compacting else "writing"
        super().__init__(f"cannot write the run folder {run_dir} ({what}) while {doing} it: {games_stored} of "
                         f"{games_total} games are stored and kept; free some space (or fix the folder) and rerun "
                         "the same command to resume", "--out")
        self.run_dir, self.games_stored, self.games_total = run_dir, games_stored, games_total
        self.errno = getattr(err, "errno", None)
