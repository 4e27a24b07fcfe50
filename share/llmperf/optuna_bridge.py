#!/usr/bin/env python3
"""llmperf tune's bridge to Optuna: the sampler of --strategy tpe:N, cmaes:N and nsga2:N.

llmperf starts this script and speaks JSON lines with it over its stdin and stdout, one request
and one answer per line; Python stays out of the benchmark. The requests:

  {"op": "init", "sampler": "tpe"|"cmaes"|"nsga2", "seed": S, "startup": K,
   "directions": ["maximize", ...],
   "params": [{"name": "B", "type": "int", "low": 0, "high": 7},
              {"name": "cp", "type": "categorical", "choices": ["true", "false"]}]}
      -> {"ok": true, "optuna": "3.1.0", "python": "/usr/bin/python3"}
  {"op": "ask"}
      -> {"number": 3, "params": {"B": 5, "cp": "true"}}
  {"op": "tell", "number": 3, "values": [1234.5], "feasible": true}
  {"op": "tell", "number": 3, "feasible": false, "reason": "start_failed: ..."}
      -> {"ok": true}
  {"op": "add", "params": {...}, "values": [...], "feasible": ...}   (a trial of the ledger,
      retold on --resume)  -> {"ok": true}

"directions" has one entry per objective: with several (--objective given more than once, as
for nsga2:N), the study is multi-objective and every "values" holds one value per objective.

Any failure answers {"error": "..."}. Before anything, the first line says whether Optuna could
be imported: {"ready": true, "optuna": VERSION, "python": sys.executable} or
{"ready": false, "error": "...", "python": sys.executable}, and the script exits.

An infeasible trial (its server refused the configuration, its benchmark failed, it missed an
SLO, or it is excluded) is told as COMPLETE with a constraint violation (user attribute
"constraint" [1.0]; feasible ones [-1.0]), which TPESampler's and NSGAIISampler's
constraints_func read: the sampler ranks it below every feasible trial. It needs a value too:
its own (an SLO violation has one) or else the worst value told so far (0 before any). CMA-ES has
no constraints in Optuna 3.1: it sees only that penalty value, the worst so far.
"""

import json
import math
import signal
import sys

# Ctrl-C reaches the whole terminal's process group: llmperf stops the study and then closes this
# script's input, which ends it; a KeyboardInterrupt here would only cut an answer short.
signal.signal(signal.SIGINT, signal.SIG_IGN)


def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


try:
    import optuna
except Exception as error:  # noqa: BLE001 - any import failure means "no usable Optuna"
    answer({"ready": False, "error": f"{type(error).__name__}: {error}", "python": sys.executable})
    sys.exit(0)

answer({"ready": True, "optuna": optuna.__version__, "python": sys.executable})
optuna.logging.set_verbosity(optuna.logging.WARNING)
try:
    import warnings
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
except AttributeError:
    pass


def constraints(trial):
    return trial.user_attrs.get("constraint", [-1.0])


class Bridge:
    def __init__(self, request):
        self.directions = request.get("directions", ["maximize"])
        self.distributions = {}
        for param in request["params"]:
            if param["type"] == "int":
                self.distributions[param["name"]] = optuna.distributions.IntDistribution(
                    param["low"], param["high"])
            else:
                self.distributions[param["name"]] = optuna.distributions.CategoricalDistribution(
                    param["choices"])
        seed = request.get("seed")
        startup = request.get("startup", 10)
        kind = request.get("sampler", "tpe")
        if kind == "tpe":
            # The best quarter of the trials make the model of good configurations (Optuna's
            # default, a tenth, makes it of one trial until there are ten): in a replay of the
            # mock's scheduler model, as often within 2 % of the best with 8 benchmarks, and
            # about half the start failures.
            sampler = optuna.samplers.TPESampler(
                seed=seed, n_startup_trials=startup, multivariate=True,
                gamma=lambda n: min(max(1, math.ceil(0.25 * n)), 25),
                constraints_func=constraints)
        elif kind == "cmaes":
            sampler = optuna.samplers.CmaEsSampler(seed=seed, n_startup_trials=startup)
        elif kind == "nsga2":
            sampler = optuna.samplers.NSGAIISampler(seed=seed, constraints_func=constraints,
                                                    population_size=max(2, startup))
        else:
            raise ValueError(f"unknown sampler {kind!r}")
        self.study = optuna.create_study(directions=self.directions, sampler=sampler)
        self.asked = {}
        self.worst = [None] * len(self.directions)

    def penalty(self, values):
        """The values of an infeasible trial: its own, else the worst told so far (0 before)."""
        if values is not None and len(values) == len(self.directions):
            return [float(v) for v in values]
        return [0.0 if w is None else w for w in self.worst]

    def remember(self, values, feasible):
        if values is None or len(values) != len(self.directions):
            return
        for i, value in enumerate(values):
            value = float(value)
            worse = min if self.directions[i] == "maximize" else max
            self.worst[i] = value if self.worst[i] is None else worse(self.worst[i], value)

    def ask(self):
        trial = self.study.ask(self.distributions)
        self.asked[trial.number] = trial
        return {"number": trial.number, "params": trial.params}

    def tell(self, request):
        trial = self.asked.pop(request["number"])
        feasible = bool(request.get("feasible", True))
        values = request.get("values")
        self.remember(values, feasible)
        trial.set_user_attr("constraint", [-1.0] if feasible else [1.0])
        if not feasible:
            trial.set_user_attr("reason", request.get("reason", ""))
            values = self.penalty(values)
        self.study.tell(trial, [float(v) for v in values])
        return {"ok": True}

    def add(self, request):
        feasible = bool(request.get("feasible", True))
        values = request.get("values")
        self.remember(values, feasible)
        if not feasible:
            values = self.penalty(values)
        self.study.add_trial(optuna.trial.create_trial(
            params=request["params"], distributions=self.distributions,
            values=[float(v) for v in values],
            user_attrs={"constraint": [-1.0] if feasible else [1.0],
                        "reason": request.get("reason", "")},
            # Where the samplers keep a trial's constraints: after_trial, which computes them for
            # a told trial, is not called for an added one.
            system_attrs={"constraints": [-1.0] if feasible else [1.0]}))
        return {"ok": True}


def main():
    bridge = None
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "init":
                bridge = Bridge(request)
                answer({"ok": True, "optuna": optuna.__version__, "python": sys.executable})
            elif bridge is None:
                answer({"error": "the first request must be init"})
            elif op == "ask":
                answer(bridge.ask())
            elif op == "tell":
                answer(bridge.tell(request))
            elif op == "add":
                answer(bridge.add(request))
            else:
                answer({"error": f"unknown op {op!r}"})
        except Exception as error:  # noqa: BLE001 - every failure is answered, never fatal
            answer({"error": f"{type(error).__name__}: {error}"})


main()
