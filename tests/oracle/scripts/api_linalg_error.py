# torch.linalg.LinAlgError (torch._C._LinAlgError, a RuntimeError): what a singular solve, inv or a
# failed cholesky raise, catchable by either name.
import torch
print(torch.linalg.LinAlgError, issubclass(torch.linalg.LinAlgError, RuntimeError), torch.linalg.LinAlgError.__name__)
for f in (lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(2)), lambda: torch.linalg.inv(torch.zeros(3, 3)),
          lambda: torch.linalg.cholesky(-torch.eye(2))):
    try:
        f()
    except torch.linalg.LinAlgError as e:
        print("LinAlgError:", type(e).__name__, e)
    except RuntimeError as e:
        print("RuntimeError:", type(e).__name__, e)
try:
    torch.linalg.inv(torch.zeros(2, 2))
except RuntimeError as e:
    print(isinstance(e, torch.linalg.LinAlgError), str(e))
