"""Classic wrong answers and other correct idioms for k10_inference."""

import torch

from selftests.variants import right, wrong


def _eval_no_grad(model, x):
    """A correct predict, used by the predict_in_batches variants."""
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.train(was_training)
    return out


# --- predict ----------------------------------------------------------------------------------


@wrong("predict", "training mode", "model.eval()")
def predict_without_eval(model, x):
    with torch.no_grad():
        return model(x)


@wrong("predict", "autograd graph", "torch.no_grad()")
def predict_without_no_grad(model, x):
    was_training = model.training
    model.eval()
    out = model(x)
    model.train(was_training)
    return out


@wrong("predict", "left it in eval mode", "model.train(was_training)")
def predict_leaves_eval_mode(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


@wrong("predict", "switched it to training mode", "was_training")
def predict_always_back_to_train(model, x):
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.train()
    return out


@wrong("predict", "only the top module", "model.train(mode)")
def predict_restores_top_flag_only(model, x):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.training = was_training
    return out


@wrong("predict", "detach", "torch.no_grad()")
def predict_detached_afterwards(model, x):
    was_training = model.training
    model.eval()
    out = model(x).detach()
    model.train(was_training)
    return out


@right("predict")
def predict_inference_mode(model, x):
    mode = model.training
    try:
        model.train(False)
        with torch.inference_mode():
            return model(x)
    finally:
        model.train(mode)


@right("predict")
def predict_set_grad_enabled(model, x):
    was_training = model.training
    model.eval()
    with torch.set_grad_enabled(False):
        out = model(x)
    if was_training:
        model.train()
    return out


@right("predict")
def predict_decorated(model, x):
    @torch.no_grad()
    def run():
        return model.eval()(x)
    was_training = model.training
    out = run()
    model.train(was_training)
    return out


# --- predict_in_batches -----------------------------------------------------------------------


@wrong("predict_in_batches", "more rows at once than batch_size", "x.split(batch_size)")
def predict_all_at_once(model, x, batch_size):
    return _eval_no_grad(model, x)


@wrong("predict_in_batches", "torch.chunk(x, n) makes at most n chunks")
def predict_chunk_count(model, x, batch_size):
    return torch.cat([_eval_no_grad(model, c) for c in torch.chunk(x, batch_size)])


@wrong("predict_in_batches", "last, shorter chunk was dropped")
def predict_drops_remainder(model, x, batch_size):
    outs = [_eval_no_grad(model, x[i * batch_size:(i + 1) * batch_size]) for i in range(len(x) // batch_size)]
    return torch.cat(outs)


@wrong("predict_in_batches", "training mode", "model.eval()")
def predict_chunks_without_eval(model, x, batch_size):
    with torch.no_grad():
        return torch.cat([model(c) for c in x.split(batch_size)])


@wrong("predict_in_batches", "autograd graph", "torch.no_grad()")
def predict_chunks_with_graph(model, x, batch_size):
    was_training = model.training
    model.eval()
    out = torch.cat([model(c) for c in x.split(batch_size)])
    model.train(was_training)
    return out


@wrong("predict_in_batches", "train/eval mode", "model.train(was_training)")
def predict_chunks_leaves_eval(model, x, batch_size):
    model.eval()
    with torch.no_grad():
        return torch.cat([model(c) for c in x.split(batch_size)])


@wrong("predict_in_batches", "detached afterwards", "torch.no_grad()")
def predict_chunks_detached(model, x, batch_size):
    was_training = model.training
    model.eval()
    out = torch.cat([model(c).detach() for c in x.split(batch_size)])
    model.train(was_training)
    return out


@right("predict_in_batches")
def predict_chunks_by_range(model, x, batch_size):
    was_training = model.training
    model.eval()
    try:
        with torch.inference_mode():
            outs = [model(x[start:start + batch_size]) for start in range(0, x.shape[0], batch_size)]
        return torch.cat(outs)
    finally:
        model.train(was_training)


@right("predict_in_batches")
def predict_chunks_preallocated(model, x, batch_size):
    was_training = model.training
    model.eval()
    out = None
    with torch.no_grad():
        for start in range(0, len(x), batch_size):
            y = model(x[start:start + batch_size])
            if out is None:
                out = y.new_empty((len(x),) + tuple(y.shape[1:]))
            out[start:start + len(y)] = y
    model.train(was_training)
    return out


@right("predict_in_batches")
def predict_chunks_smaller_than_allowed(model, x, batch_size):
    step = max(1, batch_size - 1)          # smaller chunks than allowed are fine too
    return torch.cat([_eval_no_grad(model, part) for part in torch.split(x, step)])
