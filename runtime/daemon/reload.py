"""Hot reload of the rule bundle: validate beside the running engine, then swap.

``BundleReloader`` notices a request (SIGHUP) or a changed bundle file (device, inode,
size and mtime polled every ``poll_s``), loads and validates the new bundle exactly as
at start (``build_engine``: ``load_bundle``, an ``Engine``, one probe evaluation) on a
worker thread, and hands back a ``ReloadOutcome``.  It never touches the serving engine:
the daemon swaps between two samples by calling ``adopt(old, new, t)`` and then
``accepted(new)``.  A failed candidate is reported and dropped; the last good bundle
keeps serving, and the same file is not retried until it changes again or on SIGHUP.

What crosses a swap (``adopt``), and why nothing wrong can:
- the last value and sample time of every parameter whose name *and unit* are the same
  in both bundles (a reading in the same unit is still the same reading); validity
  (range, staleness with the new max_age_s) is recomputed by the new engine;
- the raised state of every rule whose id exists in both: the firmware was told it is
  raised; the new engine re-evaluates at once and clears it (a normal "clear") if its
  new condition no longer holds (subject to the new bundle's latch and off-delay); its
  acknowledgement and a running off-delay timer go with it;
- a duration timer ("for more than T") only when the rule's condition text and duration
  are identical; otherwise the timer restarts;
- the sensor-fault state of the carried parameters (so faults are not announced twice).
A rule raised under the old bundle whose id is gone gets a "clear" event (advisory
"withdrawn by bundle reload").  After the carry the new engine steps once at the last
sample time with no new values, so advisories reflect the new rules immediately.

Trust: ``engine_loader(trust_path)`` is the loader for start, ``--check`` and every
reload alike, so a bundle the trusted key did not sign is refused on reload exactly as
at start, and the previous bundle keeps serving.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.bundle.signing import TrustedKey, load_public_key
from rulec.runtime.engine.adopt import Adoption as Adoption
from rulec.runtime.engine.adopt import adopt as adopt
from rulec.runtime.engine.engine import Engine
from rulec.runtime.errors import RulecError

Signature = tuple[int, int, int, int]


def file_signature(path: str | os.PathLike[str]) -> Signature | None:
    """(device, inode, size, mtime in ns), or None when the file cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def build_engine(path: str | os.PathLike[str], trust: TrustedKey | None = None) -> Engine:
    """Load, validate and probe a bundle exactly as the daemon serves it.

    Raises ``RulecError`` (``BundleError`` mostly, ``SignatureError`` when ``trust`` is
    given and the bundle is not signed by it) on any defect.
    """
    bundle = load_bundle(path, trust=trust)
    engine = Engine(bundle)
    engine.evaluate({})  # the containment kernel answers before anything relies on it
    return engine


def engine_loader(
    trust_path: str | os.PathLike[str] | None,
) -> Callable[[str | os.PathLike[str]], Engine]:
    """The daemon's one loader: ``build_engine`` bound to the trusted key, if any.

    The key is read once, here, so a missing key file or a missing ``cryptography``
    library refuses the start (``KeyFileError``, ``SigningUnavailableError``) instead
    of failing every reload later.
    """
    if trust_path is None:
        return build_engine
    return functools.partial(build_engine, trust=load_public_key(trust_path))


@dataclass
class ReloadOutcome:
    """The result of one reload attempt; ``engine`` is the validated candidate."""

    trigger: str
    ok: bool
    engine: Engine | None = None
    error: str | None = None
    changed: bool = False
    load_ms: float = 0.0

    def to_json(self, serving: Engine) -> dict[str, object]:
        out: dict[str, object] = {"event": "reload", "ok": self.ok, "trigger": self.trigger}
        if self.ok and self.engine is not None:
            out["changed"] = self.changed
            out["bundle_id"] = self.engine.bundle.meta.get("bundle_id")
            out["digest"] = self.engine.bundle.digest
            out["signature"] = self.engine.bundle.signature.to_json()
        else:
            out["level"] = "error"
            out["error"] = self.error
            out["serving"] = serving.bundle.meta.get("bundle_id")
            out["serving_digest"] = serving.bundle.digest
        out["load_ms"] = round(self.load_ms, 3)
        return out


class BundleReloader:
    """Watches one bundle file and validates new versions beside the serving engine."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        current: Engine,
        poll_s: float = 1.0,
        background: bool = True,
        loader: Callable[[str | os.PathLike[str]], Engine] = build_engine,
        clock: Callable[[], float] = time.monotonic,
        seen: object = None,
    ) -> None:
        """``seen``: the file's signature taken before ``current`` was read from it."""
        self.path = path
        self.current = current
        self.poll_s = poll_s
        self.background = background
        self.loader = loader
        self.clock = clock
        self.attempts = 0
        self.failures = 0
        self._seen = file_signature(path) if seen is None else seen
        self._next_poll = clock() + poll_s
        self._requested: str | None = None
        self._thread: threading.Thread | None = None
        self._result: ReloadOutcome | None = None

    @classmethod
    def start(
        cls,
        path: str | os.PathLike[str],
        poll_s: float = 1.0,
        background: bool = True,
        loader: Callable[[str | os.PathLike[str]], Engine] = build_engine,
    ) -> BundleReloader:
        """Load the first bundle (raising ``RulecError`` on a defect), then watch it."""
        seen = file_signature(path)  # taken before reading, so a later write is noticed
        reloader = cls(path, loader(path), poll_s, background, loader)
        reloader._seen = seen
        return reloader

    @property
    def busy(self) -> bool:
        return self._thread is not None

    def request(self, trigger: str = "SIGHUP") -> None:
        """Ask for a reload at the next poll (safe to call from a signal handler)."""
        self._requested = trigger

    def poll(self, now: float | None = None) -> ReloadOutcome | None:
        """A finished attempt, if any; starts a new one when asked or the file changed."""
        if self._thread is not None:
            if self._thread.is_alive():
                return None
            self._thread.join()
            self._thread = None
            return self._finish()
        now = self.clock() if now is None else now
        trigger = self._requested
        if trigger is not None:
            self._requested = None
        elif self.poll_s > 0 and now >= self._next_poll:
            self._next_poll = now + self.poll_s
            sig = file_signature(self.path)
            if sig != self._seen:
                self._seen = sig
                if sig is None:
                    self.failures += 1
                    return ReloadOutcome(
                        "file changed", False, error=f"{os.fspath(self.path)}: file is missing"
                    )
                trigger = "file changed"
        if trigger is None:
            return None
        self._seen = file_signature(self.path)  # before reading: a later write is seen
        self.attempts += 1
        if not self.background:
            self._result = self._load(trigger)
            return self._finish()
        self._thread = threading.Thread(
            target=self._run, args=(trigger,), name="rulec-reload", daemon=True
        )
        self._thread.start()
        return None

    def wait(self, timeout: float = 30.0) -> ReloadOutcome | None:
        """Block until a background attempt ends (tests, shutdown)."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.poll()

    def accepted(self, engine: Engine) -> None:
        """The daemon swapped ``engine`` in: it is the one serving now."""
        self.current = engine

    def _run(self, trigger: str) -> None:
        self._result = self._load(trigger)

    def _load(self, trigger: str) -> ReloadOutcome:
        started = time.perf_counter()
        try:
            engine = self.loader(self.path)
        except RulecError as exc:
            error = " ".join(str(exc).split())
            return ReloadOutcome(trigger, False, error=error, load_ms=_ms(started))
        except Exception as exc:  # noqa: BLE001 - a bad bundle must never stop the daemon
            error = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
            return ReloadOutcome(trigger, False, error=error, load_ms=_ms(started))
        changed = engine.bundle.digest != self.current.bundle.digest
        return ReloadOutcome(trigger, True, engine, changed=changed, load_ms=_ms(started))

    def _finish(self) -> ReloadOutcome | None:
        outcome, self._result = self._result, None
        if outcome is not None and not outcome.ok:
            self.failures += 1
        return outcome


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1e3
