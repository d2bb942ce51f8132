"""What the grad_equal_*.py scripts share: comparing one model copy's tensors with another's."""


def compare(what, pairs, reference=None):
    """Prints `param NAME WHAT maxabs X rel Y` for each (name, compiled copy's tensor, eager copy's
    tensor); rel is maxabs over the eager tensor's largest magnitude. Returns the names whose rel
    exceeds 1e-5: float32 math added in another order stays far inside that, a wrong gradient
    (a missing term, a wrong scale) does not.
    `reference` (optional): per pair, the same tensor from a float64 copy run eagerly. A gradient
    that cancels to rounding noise (a conv's bias before a training-mode BatchNorm: its true
    gradient is 0) has no size of its own to be 1e-5 of; there the comparison also allows 16 times
    eager's own float32 error against float64, which is what float32 can get right at all."""
    bad = []
    for k, (name, got, want) in enumerate(pairs):
        if got is None or want is None:
            print(f"param {name} {what} compiled {'None' if got is None else 'a tensor'}, eager {'None' if want is None else 'a tensor'}")
            if (got is None) != (want is None):
                bad.append(f"{name} {what} (None on one side only)")
            continue
        maxabs = (got - want).abs().max().item()
        scale = want.abs().max().item()
        rel = maxabs / scale if scale > 0 else (0.0 if maxabs == 0 else float("inf"))
        err = 0.0
        if reference is not None and reference[k] is not None:
            err = (want.double() - reference[k]).abs().max().item()
        noise = f" eager's own error {err:.3g}" if reference is not None else ""
        print(f"param {name} {what} maxabs {maxabs:.3g} rel {rel:.3g}{noise}")
        if not (rel <= 1e-5 or maxabs <= 1e-5 * scale + 16 * err):
            bad.append(f"{name} {what} (rel {rel:.3g})")
    return bad
