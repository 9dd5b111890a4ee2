"""Errors of a run: bad input (:class:`RunError`) and an interrupted run (:class:`RunInterrupted`)."""


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
