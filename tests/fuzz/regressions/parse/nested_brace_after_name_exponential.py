import ile
def f(x):
    a = x.sin()
    b = h@lper(a)
    return b.cos()

{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{y{y{{{{{{}{{{{{ee%eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee{{eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee{{{{{{{{}{{{{{ee%eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee{{eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{y{{{{{{}{{{Falseeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{y{{{{{{}{{{Falseeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{print(f(torch.zeros(2)))
