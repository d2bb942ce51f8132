# expect: exit=1 stderr="ShapeError: expected 2 dims, got 3"
class ShapeError(Exception):
    pass


raise ShapeError("expected 2 dims, got 3")
