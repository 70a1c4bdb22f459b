"""Classic wrong answers and other correct idioms for k25_detach."""

import torch
import torch.nn.functional as F

from selftests.variants import right, wrong

# --- consistency_loss -------------------------------------------------------------------------


@wrong("consistency_loss", "constant", "flowed through the target")
def consistency_with_a_live_target(model, x, noise):
    return F.mse_loss(model(x + noise), model(x))   # gradients flow through the target too


@wrong("consistency_loss", "recording off", "graph")
def consistency_without_any_graph(model, x, noise):
    with torch.no_grad():
        return F.mse_loss(model(x + noise), model(x))


@right("consistency_loss")
def consistency_with_a_no_grad_target(model, x, noise):
    with torch.no_grad():
        target = model(x)
    return ((model(x + noise) - target) ** 2).mean()


@right("consistency_loss")
def consistency_with_data_target(model, x, noise):
    return torch.nn.MSELoss()(model(x + noise), model(x).data)


@wrong("consistency_loss", "eval mode", "switched back")
def consistency_with_an_eval_target_then_train(model, x, noise):
    model.eval()
    with torch.no_grad():
        target = model(x)
    model.train()                  # assumes the caller's model was in train mode
    return F.mse_loss(model(x + noise), target)


@wrong("consistency_loss", "froze", "require grad again")
def consistency_by_switching_flags(model, x, noise):
    model.requires_grad_(False)
    target = model(x)
    model.requires_grad_(True)     # also unfreezes what the caller had frozen
    return F.mse_loss(model(x + noise), target)


@right("consistency_loss")
def consistency_by_switching_flags_back(model, x, noise):
    flags = [p.requires_grad for p in model.parameters()]
    model.requires_grad_(False)
    target = model(x)
    for p, flag in zip(model.parameters(), flags):
        p.requires_grad_(flag)
    return F.mse_loss(model(x + noise), target)


# --- freeze_ ----------------------------------------------------------------------------------


@wrong("freeze_", "model.requires_grad = False", "ordinary attribute")
def freeze_by_attribute(model):
    model.requires_grad = False    # an ordinary attribute of the module: no parameter changes


@wrong("freeze_", "eval()", "not gradients")
def freeze_by_eval(model):
    model.eval()


@wrong("freeze_", "rebinding a name", "still require grad")
def freeze_by_detaching(model):
    for parameter in model.parameters():
        parameter = parameter.detach()   # rebinds the loop's name: the model's parameter is unchanged


@right("freeze_")
def freeze_by_module_method(model):
    model.requires_grad_(False)


@right("freeze_")
def freeze_by_flag(model):
    for _, parameter in model.named_parameters():
        parameter.requires_grad = False


@wrong("freeze_", "mode", "freezing")
def freeze_and_switch_to_eval(model):
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    model.eval()                        # the caller's mode is not freezing's business


@wrong("freeze_", ".grad", "freezing")
def freeze_and_drop_the_gradients(model):
    for parameter in model.parameters():
        parameter.requires_grad_(False)
        parameter.grad = None
