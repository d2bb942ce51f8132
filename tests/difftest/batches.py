"""What the two differential testers share (run_difftest.py: compiled vs eager values;
grad_difftest.py: compiled vs eager gradients): the environment a generated script runs in, the
verdict of a program a script never reported on, the rerun of those one by one after a crash or
hang, and the shrinking loop that drops statements while the program still fails."""
import os


def script_env(cache_dir):
    """The environment of a generated script: one OpenMP thread, a fixed hash seed, and the
    compile cache at `cache_dir` ("-": none; generated kernels hardly ever repeat across scripts)."""
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = "1"
    env["PYTHONHASHSEED"] = "0"
    if cache_dir:
        env["FUSELAB_CACHE_DIR"] = cache_dir
    return env


def unreported(programs, res, rc, err):
    """Marks each program the script's output said nothing about "unknown", with what happened to
    the script: hung, crashed, or the error it ended with."""
    for p in programs:
        if p.name in res:
            continue
        if rc is None:
            why = "hung (timeout)"
        elif rc < 0 or rc >= 128:
            why = "crashed (exit %d)" % rc
        else:
            last = [l for l in err.strip().splitlines() if l.strip()]
            why = "error (exit %d): %s" % (rc, last[-1] if last else "no output")
        res[p.name] = ("unknown", why)
    return res


def settle_unknown(batch, verdicts, judge_alone, results):
    """A crash or hang: reruns the programs the script did not report on, one by one (the first of
    them was running when it happened; the others never ran). `judge_alone(p)` -> (kind, why)."""
    unknown = [p for p in batch if verdicts[p.name][0] == "unknown"]
    for i, p in enumerate(unknown):
        kind, why = judge_alone(p)
        if i == 0 and kind == "ok":
            kind, why = "fail", "passes alone, but %s in a script with others" % verdicts[p.name][1]
        results[p.name] = (kind, why)


def drop_statements(p, fails, budget):
    """(smaller program, budget left): statements dropped (with what reads them, `p.without`) while
    `fails(candidate)` holds, one run of the budget per candidate tried."""
    best = p
    changed = True
    while changed and budget > 0:
        changed = False
        for i in reversed(range(len(best.stmts))):
            if budget <= 0:
                break
            cand = best.without({i})
            if cand is None or not cand.stmts:
                continue
            budget -= 1
            if fails(cand):
                best = cand
                changed = True
                break
    return best, budget
