"""What the grad_equal_*.py scripts share: comparing one model copy's tensors with another's."""


def compare(what, pairs):
    """Prints `param NAME WHAT maxabs X rel Y` for each (name, compiled copy's tensor, eager copy's
    tensor); rel is maxabs over the eager tensor's largest magnitude. Returns the names whose rel
    exceeds 1e-5: float32 math added in another order stays far inside that, a wrong gradient
    (a missing term, a wrong scale) does not."""
    bad = []
    for name, got, want in pairs:
        if got is None or want is None:
            print(f"param {name} {what} compiled {'None' if got is None else 'a tensor'}, eager {'None' if want is None else 'a tensor'}")
            if (got is None) != (want is None):
                bad.append(f"{name} {what} (None on one side only)")
            continue
        maxabs = (got - want).abs().max().item()
        scale = want.abs().max().item()
        rel = maxabs / scale if scale > 0 else (0.0 if maxabs == 0 else float("inf"))
        print(f"param {name} {what} maxabs {maxabs:.3g} rel {rel:.3g}")
        if not rel <= 1e-5:
            bad.append(f"{name} {what} (rel {rel:.3g})")
    return bad
