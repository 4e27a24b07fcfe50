"""llmperf tune's shared study (--storage URL --study-name NAME), imported by optuna_bridge.py.

Several `llmperf tune` workers, on one host or several, ask one Optuna study kept in Optuna's
storage (PostgreSQL, or an SQLite file on one host). Each runs its trials on its own machine and
keeps its own ledger; the storage holds every trial, and each finished one carries its worker's
whole ledger record (user attribute "llmperf_record") with the worker's "host" and study "dir",
so that `llmperf report --storage` rebuilds the combined study from the storage alone.

The requests (beside optuna_bridge.py's):

  init gains "storage", "study_name", "worker": {"host": H, "dir": D} and "study" (study.json's
      object): the study is created, or loaded when it exists (create_study(load_if_exists=True));
      the first worker stores "study" as the study's user attribute "llmperf_study", and a worker
      whose parameters, objective or strategy differ from it is refused. Trials this worker left
      RUNNING (it was killed mid-trial and now starts again) are marked FAIL.
  {"op": "claim", "benchmarks": N, "draws": 3N, "space": S, "repeats": 100}
      -> {"number": n, "params": {...}, "duplicates": k}: a configuration no worker has run or is
         running, which this worker now runs; or {"done": "budget"|"draws"|"space"|"repeats",
         "benchmarked": b, "drawn": d, "duplicates": k}.
  {"op": "record", "number": n, "record": {...}, "benchmarked": true|false}  -> {"ok": true}
      (before the trial's tell)
  {"op": "release", "number": n}  -> {"ok": true}: a claimed trial interrupted (Ctrl-C), told FAIL
      so that its configuration is free again.
  {"op": "sync", "number": n, "params": {...}, "values": [...], "feasible": ..., "record": {...},
   "benchmarked": ...}  (a finished trial of the ledger, on --resume)  -> {"ok": true, "added": b}
      the trial is added with its record unless the storage has it COMPLETE already.
  {"op": "export", "storage": URL, "study_name": NAME}  (no init needed)
      -> {"study": {...} or null, "trials": [{"number", "state", "host", "dir", "record"}]}

Which trials count. A configuration has been run when a trial with the same parameters is
COMPLETE (whatever its outcome: ok, slo_violated, start_failed, excluded, all told COMPLETE, the
failures with a constraint violation), or RUNNING with a lower trial number (numbers are the
storage's, unique across workers, so of two workers that drew the same configuration at once the
lower number runs it and the other backs off). A trial that drew a configuration already run gets
the user attribute "duplicate_of" and is told the copy's result (as one worker tells a
configuration drawn again, so that the sampler's model moves on), or FAIL while the copy is still
RUNNING; it is not a run, and the worker asks again; `repeats` such offers in a row end its
search. The budget is
the shared study's: the COMPLETE trials that reached a benchmark, with those RUNNING before this
one, may not exceed N, nor the trials drawn 3N; a trial asked beyond either is told FAIL
("over_budget"), and the worker stops.
"""

import json
import random
import time

import optuna
import sqlalchemy.exc
from optuna.trial import TrialState

_SECRETS = []  # the storage URL's password: kept out of every error message
_WORKER = {}  # this worker: {"host": H, "dir": D}, as init gave it


def redact(text):
    for secret in _SECRETS:
        if secret:
            text = text.replace(secret, "***")
    return text


def describe(error):
    """An error as the bridge answers it: its type and text, and the first line of its cause (the
    driver's own words, which Optuna's StorageInternalError hides), the password redacted."""
    def first_line(what):
        lines = str(what).strip().splitlines()
        return lines[0] if lines else ""

    text = f"{type(error).__name__}: {first_line(error)}"
    cause = error.__cause__ or (None if error.__suppress_context__ else error.__context__)
    if cause is not None and first_line(cause) not in text:
        text += f" ({type(cause).__name__}: {first_line(cause)})"
    return redact(text)


def _remember_password(storage):
    try:
        from sqlalchemy.engine import make_url
        password = make_url(storage).password
    except Exception:  # noqa: BLE001 - a URL SQLAlchemy cannot read fails later, redacted by llmperf
        return
    if password:
        _SECRETS.append(str(password))


def _key(params):
    return json.dumps(params, sort_keys=True)


def _same_flags(stored, mine):
    """The flags that make two workers' studies one: the space, the objectives, the strategy."""
    stored_spec = (stored or {}).get("spec", {})
    mine_spec = (mine or {}).get("spec", {})
    flags = {"params": "--param", "objective": "--objective", "objectives": "--objective",
             "strategy": "--strategy"}
    for field, flag in flags.items():
        if stored_spec.get(field) != mine_spec.get(field):
            return (f"{flag} differs: the shared study has {json.dumps(stored_spec.get(field))}, "
                    f"this worker {json.dumps(mine_spec.get(field))}")
    return None


# libpq's limits for a PostgreSQL storage: a connection that is not set up within 10 s fails (a
# host that accepts TCP but never answers, a dropped route), and TCP keepalives close one whose
# peer is gone after about 25 s of silence, instead of the bridge waiting until llmperf's
# 10-minute limit on an answer.
POSTGRES_CONNECT_ARGS = {"connect_timeout": 10, "keepalives": 1, "keepalives_idle": 10,
                         "keepalives_interval": 5, "keepalives_count": 3}


def _rdb_storage(url):
    """Optuna's RDBStorage, waiting for an SQLite file another worker holds locked, and checking a
    pooled PostgreSQL connection before each use (a restarted server then costs no error)."""
    if url.startswith("sqlite"):
        return optuna.storages.RDBStorage(url, engine_kwargs={"connect_args": {"timeout": 60}})
    return optuna.storages.RDBStorage(
        url, engine_kwargs={"pool_pre_ping": True, "connect_args": POSTGRES_CONNECT_ARGS})


def create_study(request, directions, sampler):
    """optuna_bridge.py's study: in memory, or the shared one in the storage."""
    storage = request.get("storage")
    if not storage:
        return optuna.create_study(directions=directions, sampler=sampler)
    _remember_password(storage)
    name = request["study_name"]
    # Workers started together race to create the storage's tables (and the study): the loser's
    # error is retried a few times, after a random pause.
    for attempt in range(10):
        try:
            study = optuna.create_study(storage=_rdb_storage(storage), study_name=name,
                                        directions=directions, sampler=sampler,
                                        load_if_exists=True)
            break
        except Exception as error:  # noqa: BLE001 - the last attempt's error is answered
            # A PostgreSQL server that cannot be reached (an error without an SQLSTATE, which
            # the race's deadlocks and unique violations have) is not a race: each attempt would
            # wait for the connect timeout again.
            unreachable = (storage.startswith("postgresql")
                           and isinstance(error, sqlalchemy.exc.OperationalError)
                           and getattr(error.orig, "pgcode", None) is None)
            if attempt == 9 or unreachable:
                raise
            time.sleep(0.2 + random.random())
    if [d.name.lower() for d in study.directions] != directions:
        raise ValueError(f"the shared study {name!r} has other directions "
                         f"({[d.name.lower() for d in study.directions]})")
    mine = request.get("study")
    stored = study.user_attrs.get("llmperf_study")
    if stored is None:
        study.set_user_attr("llmperf_study", mine)
    elif (why := _same_flags(stored, mine)) is not None:
        raise ValueError(f"the shared study {name!r} was started with other flags: {why}")
    _WORKER.update(request.get("worker", {}))
    worker = _WORKER
    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        if (trial.user_attrs.get("host") == worker.get("host")
                and trial.user_attrs.get("dir") == worker.get("dir")):
            study.tell(trial.number, state=TrialState.FAIL)
    return study


def _release(study, trial, why, extra=None):
    trial.set_user_attr(why, True if extra is None else extra)
    study.tell(trial, state=TrialState.FAIL)


def _settled_ahead(study, trial, distributions, tally):
    """tally() of the trials ahead of `trial`, once each RUNNING one among them has its parameters.

    Another worker's ask creates its trial (RUNNING, numbered) before it writes the trial's
    parameters: a trial ahead seen between the two would not look like a copy, and two workers
    that drew one configuration at the same moment would both run it. Nothing announces the
    write, so this reads the storage again until it is there (at most about 5 s, for a worker
    that died in between).
    """
    for _ in range(100):
        trials = [t for t in study.get_trials(deepcopy=False) if t.number != trial.number]
        ahead, counted, drawn = tally(trials, trial.number)
        if all(len(t.params) >= len(distributions) for t in ahead
               if t.state == TrialState.RUNNING):
            break
        time.sleep(0.05)
    return ahead, counted, drawn


def claim(bridge, request):
    study = bridge.study
    benchmarks = int(request["benchmarks"])
    draws = int(request["draws"])
    space = int(request["space"])
    repeats = int(request.get("repeats", 100))
    worker = _WORKER
    duplicates = 0

    def tally(trials, number=None):
        """The runs ahead of trial `number` (all, when None): COMPLETE, or RUNNING before it."""
        ahead = [t for t in trials
                 if "duplicate_of" not in t.user_attrs
                 and (t.state == TrialState.COMPLETE
                      or (t.state == TrialState.RUNNING and (number is None or t.number < number)))]
        benchmarked = sum(1 for t in ahead
                          if t.state == TrialState.COMPLETE and t.user_attrs.get("benchmarked"))
        running = sum(1 for t in ahead if t.state == TrialState.RUNNING)
        return ahead, benchmarked + running, len(ahead)

    def over(counted, drawn, keys):
        if counted >= benchmarks:
            return "budget"
        if drawn >= draws:
            return "draws"
        if len(keys) >= space:
            return "space"
        return None

    while True:
        ahead, counted, drawn = tally(study.get_trials(deepcopy=False))
        done = over(counted, drawn, {_key(t.params) for t in ahead})
        if done:
            return {"done": done, "benchmarked": counted, "drawn": drawn, "duplicates": duplicates}
        trial = study.ask(bridge.distributions)
        trial.set_user_attr("host", worker.get("host", ""))
        trial.set_user_attr("dir", worker.get("dir", ""))
        ahead, counted, drawn = _settled_ahead(study, trial, bridge.distributions, tally)
        done = over(counted, drawn, set())
        if done:
            _release(study, trial, "over_budget")
            return {"done": done, "benchmarked": counted, "drawn": drawn, "duplicates": duplicates}
        mine = _key(trial.params)
        copy = next((t for t in ahead if _key(t.params) == mine), None)
        if copy is not None:
            # Told the copy's result, as a single worker tells a configuration drawn again, so
            # that the sampler's model moves on; or FAIL while the copy still runs.
            trial.set_user_attr("duplicate_of", copy.number)
            if copy.state == TrialState.COMPLETE:
                trial.set_user_attr("constraint", copy.user_attrs.get("constraint", [-1.0]))
                study.tell(trial, copy.values)
            else:
                study.tell(trial, state=TrialState.FAIL)
            duplicates += 1
            if duplicates >= repeats:
                return {"done": "repeats", "benchmarked": counted, "drawn": drawn,
                        "duplicates": duplicates}
            continue
        trial.set_user_attr("claimed", True)
        bridge.asked[trial.number] = trial
        return {"number": trial.number, "params": trial.params, "duplicates": duplicates}


def record(bridge, request):
    trial = bridge.asked[request["number"]]
    trial.set_user_attr("llmperf_record", request["record"])
    trial.set_user_attr("benchmarked", bool(request.get("benchmarked")))
    return {"ok": True}


def release(bridge, request):
    """A claimed trial that did not finish (Ctrl-C): FAIL, so that its configuration is free."""
    trial = bridge.asked.pop(request["number"])
    _release(bridge.study, trial, "interrupted")
    return {"ok": True}


def sync(bridge, request):
    """A finished trial of this worker's ledger (on --resume) that the storage lacks as COMPLETE:
    the database was away when it ended, or this is another database. Added with its record, as
    Bridge.add adds a ledger's trial."""
    study = bridge.study
    record = request["record"]
    for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        found = trial.user_attrs.get("llmperf_record")
        if (found is not None and found.get("trial") == record.get("trial")
                and trial.user_attrs.get("host") == _WORKER.get("host")
                and trial.user_attrs.get("dir") == _WORKER.get("dir")):
            return {"ok": True, "added": False}
    feasible = bool(request.get("feasible", True))
    values = request.get("values")
    bridge.remember(values, feasible)
    if not feasible:
        values = bridge.penalty(values)
    constraint = [-1.0] if feasible else [1.0]
    study.add_trial(optuna.trial.create_trial(
        params=request["params"], distributions=bridge.distributions,
        values=[float(v) for v in values],
        user_attrs={"constraint": constraint, "reason": request.get("reason", ""),
                    "llmperf_record": record, "benchmarked": bool(request.get("benchmarked")),
                    "host": _WORKER.get("host", ""), "dir": _WORKER.get("dir", "")},
        system_attrs={"constraints": constraint}))
    return {"ok": True, "added": True}


def export(request):
    storage = request["storage"]
    _remember_password(storage)
    rdb = _rdb_storage(storage)
    try:
        study = optuna.load_study(study_name=request["study_name"], storage=rdb)
    except KeyError:
        names = sorted(s.study_name for s in optuna.study.get_all_study_summaries(rdb))
        raise ValueError(f"it holds no study named {request['study_name']!r} (its studies: "
                         f"{', '.join(names) if names else 'none'})") from None
    trials = []
    # COMPLETE trials, and RUNNING ones whose tell the database missed; not FAIL ones: a worker
    # that starts again fails its RUNNING trials and adds their records anew (sync).
    for trial in study.get_trials(deepcopy=False,
                                  states=(TrialState.COMPLETE, TrialState.RUNNING)):
        found = trial.user_attrs.get("llmperf_record")
        if found is None:
            continue
        trials.append({"number": trial.number, "state": trial.state.name,
                       "host": trial.user_attrs.get("host", ""),
                       "dir": trial.user_attrs.get("dir", ""), "record": found})
    return {"study": study.user_attrs.get("llmperf_study"), "trials": trials}


# The ops of an initialised bridge.
OPS = {"claim": claim, "record": record, "release": release, "sync": sync}
