"""Classic wrong answers and other correct idioms for k40_checkpoints."""

import copy

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong

# --- save_checkpoint --------------------------------------------------------------------------


@wrong("save_checkpoint", "weights_only", "whole object")
def pickles_the_whole_model(model, optimizer, buffer):
    torch.save({"model": model, "optimizer": optimizer.state_dict()}, buffer)


@wrong("save_checkpoint", "optimizer's state")
def saves_the_model_only(model, optimizer, buffer):
    torch.save({"model": model.state_dict()}, buffer)


@right("save_checkpoint")
def saves_copies_on_the_cpu(model, optimizer, buffer):
    state = {key: value.detach().cpu().clone() for key, value in model.state_dict().items()}
    torch.save({"model": state, "optimizer": copy.deepcopy(optimizer.state_dict())}, buffer)


@right("save_checkpoint")
def saves_through_bytes(model, optimizer, buffer):
    import io

    scratch = io.BytesIO()
    torch.save({"optimizer": optimizer.state_dict(), "model": model.state_dict()}, scratch)
    buffer.write(scratch.getvalue())


# --- load_for_inference -----------------------------------------------------------------------


def _state(buffer, device):
    state = torch.load(buffer, map_location=device, weights_only=True)["model"]
    return {key.removeprefix("module."): value for key, value in state.items()}


@wrong("load_for_inference", "saved on a GPU")
def loads_without_map_location(buffer, model, device):
    state = torch.load(buffer, weights_only=True)["model"]
    model.load_state_dict({key.removeprefix("module."): value for key, value in state.items()})
    return model.to(device).eval()


@wrong("load_for_inference", "strict=False", "fresh weights")
def loads_not_strictly(buffer, model, device):
    state = torch.load(buffer, map_location=device, weights_only=True)["model"]
    model.load_state_dict(state, strict=False)
    return model.to(device).eval()


@wrong("load_for_inference", "training mode")
def leaves_training_mode_on(buffer, model, device):
    model.load_state_dict(_state(buffer, device))
    return model.to(device)


@right("load_for_inference")
def loads_on_the_cpu_then_moves(buffer, model, device):
    result = model.load_state_dict(_state(buffer, "cpu"), strict=False)
    assert not result.missing_keys and not result.unexpected_keys
    model.train(False)
    return model.to(device)


@right("load_for_inference")
def loads_with_a_device_string(buffer, model, device):
    model.to(device).load_state_dict(_state(buffer, str(device)))
    model.eval()
    return model


# --- resume_training --------------------------------------------------------------------------


def _loop(model, optimizer, x, y, steps):
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


@wrong("resume_training", "optimizer starts afresh", "momentum")
def resumes_with_a_fresh_optimizer(buffer, model, optimizer, x, y, steps):
    model.load_state_dict(torch.load(buffer, weights_only=True)["model"])
    model.train()
    return _loop(model, optimizer, x, y, steps)


@wrong("resume_training", "evaluation mode", "training mode")
def resumes_in_the_mode_it_came_in(buffer, model, optimizer, x, y, steps):
    checkpoint = torch.load(buffer, weights_only=True)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return _loop(model, optimizer, x, y, steps)


@right("resume_training")
def resumes_with_set_to_none(buffer, model, optimizer, x, y, steps):
    checkpoint = torch.load(buffer, map_location="cpu", weights_only=True)
    optimizer.load_state_dict(checkpoint["optimizer"])
    model.load_state_dict(checkpoint["model"])
    model.train(True)
    losses = []
    for _ in range(steps):
        loss = ((model(x) - y) ** 2).mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        losses.append(float(loss))
    return losses


@right("resume_training")
def resumes_with_a_closure(buffer, model, optimizer, x, y, steps):
    checkpoint = torch.load(buffer, weights_only=True)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    model.train()

    def closure():
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        return loss
    return [optimizer.step(closure).item() for _ in range(steps)]


@wrong("save_checkpoint", "gradients", "only reads")
def clears_the_gradients_first(model, optimizer, buffer):
    optimizer.zero_grad()   # "a clean checkpoint": the caller's gradients are gone
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, buffer)


@wrong("save_checkpoint", "optimizer's state dicts")
def saves_the_parameters_only(model, optimizer, buffer):
    # named_parameters() leaves out the buffers (batch norm's running statistics)
    torch.save({"model": dict(model.named_parameters()), "optimizer": optimizer.state_dict()}, buffer)


@wrong("load_for_inference", "in the middle", "prefix")
def strips_module_anywhere(buffer, model, device):
    state = torch.load(buffer, map_location=device, weights_only=True)["model"]
    model.load_state_dict({key.replace("module.", ""): value for key, value in state.items()})
    return model.to(device).eval()


@right("load_for_inference")
def strips_the_prefix_only(buffer, model, device):
    state = torch.load(buffer, map_location="cpu", weights_only=True)["model"]
    model.load_state_dict({key.removeprefix("module."): value for key, value in state.items()})
    model.to(device)
    model.eval()
    return model
