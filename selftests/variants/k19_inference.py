"""Classic wrong answers and other correct idioms for k19_inference."""

import contextlib
import copy

import torch

from selftests.variants import right, wrong


def _each_mode_kept(model):
    """Every submodule in evaluation mode for a with block, each one's own training flag put back
    after it, as predict's contract asks (not after an exception: the variants never guard it)."""
    modes = {sub: sub.training for sub in model.modules()}
    model.eval()
    yield
    for sub, mode in modes.items():
        sub.training = mode


# Not a decorator: selftests/classes.py copies these modules into submissions without those lines.
_evaluation_mode = contextlib.contextmanager(_each_mode_kept)


def _eval_no_grad(model, x):
    """A correct predict, used by the predict_in_batches variants."""
    with _evaluation_mode(model), torch.no_grad():
        return model(x)


def _forget_the_records(model):
    """What a tampering predict does to the records older checks kept on the model itself."""
    for sub in model.modules():
        sub._forward_pre_hooks.clear()
        sub._forward_hooks.clear()
    model.grad_modes, model.rows_seen = [], []


# --- predict ----------------------------------------------------------------------------------


@wrong("predict", "training mode", "dropout zeroed random units", "model.training")
def predict_without_eval(model, x):
    with torch.no_grad():
        return model(x)


@wrong("predict", "left it off", "everything this thread runs next", "torch.is_grad_enabled()")
def predict_grad_switched_off(model, x):
    with _evaluation_mode(model):
        torch.set_grad_enabled(False)   # never switched back on
        return model(x)


@wrong("predict_in_batches", "left it off", "everything this thread runs next")
def predict_chunks_grad_switched_off(model, x, batch_size):
    with _evaluation_mode(model):
        torch.set_grad_enabled(False)
        return torch.cat([model(c) for c in x.split(batch_size)])


@wrong("predict", "autograd recording", "backward pass would need", "torch.is_grad_enabled()")
def predict_without_no_grad(model, x):
    with _evaluation_mode(model):
        return model(x)


@wrong("predict", "left them in eval mode", "its own training flag")
def predict_leaves_eval_mode(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


@wrong("predict", "switched them to training mode", "model.modules()")
def predict_always_back_to_train(model, x):
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.train()
    return out


@wrong("predict", "only the top module", "its own training flag")
def predict_restores_top_flag_only(model, x):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.training = was_training
    return out


@wrong("predict", "MIXED modes", "frozen", "the top module's mode")
def predict_restores_one_mode_for_all(model, x):
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            return model(x)
    finally:
        model.train(was_training)


@wrong("predict", "detach", "comes too late", "torch.is_grad_enabled()")
def predict_detached_afterwards(model, x):
    with _evaluation_mode(model):
        return model(x).detach()


@wrong("predict", "detach", "comes too late", "torch.is_grad_enabled()")
def predict_detached_and_records_cleared(model, x):
    with _evaluation_mode(model):
        out = model(x).detach()
    _forget_the_records(model)
    return out


@wrong("predict", "detach", "comes too late", "torch.is_grad_enabled()")
def predict_on_a_copy_with_graph(model, x):
    return copy.deepcopy(model).eval()(x).detach()   # the copy's graph is still built


@right("predict")
def predict_inference_mode(model, x):
    modes = [(sub, sub.training) for sub in model.modules()]
    try:
        model.train(False)
        with torch.inference_mode():
            return model(x)
    finally:
        for sub, mode in modes:
            sub.train(mode)   # parents first, so each child's own mode wins


@right("predict")
def predict_set_grad_enabled(model, x):
    frozen = [sub for sub in model.modules() if not sub.training]
    model.eval()
    with torch.set_grad_enabled(False):
        out = model(x)
    for sub in model.modules():
        sub.training = sub not in frozen
    return out


@right("predict")
def predict_decorated(model, x):
    @torch.no_grad()
    def run(twin):
        return twin(x)
    modes = {name: sub.training for name, sub in model.named_modules()}
    out = run(model.eval())
    for name, sub in model.named_modules():
        sub.training = modes[name]
    return out


@right("predict")
def predict_on_a_copy(model, x):
    twin = copy.deepcopy(model).eval()      # the caller's model is never touched
    with torch.no_grad():
        return twin(x)


# --- predict_in_batches -----------------------------------------------------------------------


@wrong("predict_in_batches", "more rows at once than batch_size", "CUDA out of memory")
def predict_all_at_once(model, x, batch_size):
    return _eval_no_grad(model, x)


@wrong("predict_in_batches", "more rows at once than batch_size")
def predict_all_at_once_and_records_cleared(model, x, batch_size):
    out = _eval_no_grad(model, x)
    _forget_the_records(model)
    return out


@wrong("predict_in_batches", "more rows at once than batch_size")
def predict_all_at_once_left_in_eval(model, x, batch_size):
    model.eval()   # two mistakes: the batch limit is named first
    with torch.no_grad():
        return model(x)


@wrong("predict_in_batches", "torch.chunk(x, n) makes at most n chunks")
def predict_chunk_count(model, x, batch_size):
    return torch.cat([_eval_no_grad(model, c) for c in torch.chunk(x, batch_size)])


@wrong("predict_in_batches", "last, shorter chunk was dropped")
def predict_drops_remainder(model, x, batch_size):
    outs = [_eval_no_grad(model, x[i * batch_size:(i + 1) * batch_size]) for i in range(len(x) // batch_size)]
    return torch.cat(outs)


@wrong("predict_in_batches", "training mode", "the way predict does")
def predict_chunks_without_eval(model, x, batch_size):
    with torch.no_grad():
        return torch.cat([model(c) for c in x.split(batch_size)])


@wrong("predict_in_batches", "autograd recording", "the way predict does")
def predict_chunks_with_graph(model, x, batch_size):
    with _evaluation_mode(model):
        return torch.cat([model(c) for c in x.split(batch_size)])


@wrong("predict_in_batches", "train/eval modes", "the way predict does")
def predict_chunks_leaves_eval(model, x, batch_size):
    model.eval()
    with torch.no_grad():
        return torch.cat([model(c) for c in x.split(batch_size)])


@wrong("predict_in_batches", "MIXED modes", "top module's mode")
def predict_chunks_one_mode_for_all(model, x, batch_size):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = torch.cat([model(c) for c in x.split(batch_size)])
    model.train(was_training)
    return out


@wrong("predict_in_batches", "cut off from their graphs only afterwards", "comes too late")
def predict_chunks_detached(model, x, batch_size):
    with _evaluation_mode(model):
        return torch.cat([model(c).detach() for c in x.split(batch_size)])


@right("predict_in_batches")
def predict_chunks_by_range(model, x, batch_size):
    modes = {sub: sub.training for sub in model.modules()}
    model.eval()
    try:
        with torch.inference_mode():
            outs = [model(x[start:start + batch_size]) for start in range(0, x.shape[0], batch_size)]
        return torch.cat(outs)
    finally:
        for sub, mode in modes.items():
            sub.training = mode


@right("predict_in_batches")
def predict_chunks_preallocated(model, x, batch_size):
    twin = copy.deepcopy(model).eval()
    out = None
    with torch.no_grad():
        for start in range(0, len(x), batch_size):
            y = twin(x[start:start + batch_size])
            if out is None:
                out = y.new_empty((len(x),) + tuple(y.shape[1:]))
            out[start:start + len(y)] = y
    return out


@right("predict_in_batches")
def predict_chunks_smaller_than_allowed(model, x, batch_size):
    step = max(1, batch_size - 1)          # smaller chunks than allowed are fine too
    return torch.cat([_eval_no_grad(model, part) for part in torch.split(x, step)])
