"""Every generic learner-facing string, in English and Chinese.

Kata-specific texts (titles, pitfalls, hints) live in ``curriculum/*.toml``; this table holds
the words the harness and grade.py put around them. A self-test checks that every key has
both languages.
"""

import locale
import os

LANGUAGES = ("en", "zh")

MESSAGES = {
    # --- what differed -----------------------------------------------------------------
    # The lines of a message, punctuation included (Chinese uses full-width colons).
    "line.called": {"en": "Called: {call}", "zh": "调用：{call}"},
    "line.device": {"en": "   [on device: {device}]", "zh": "   （设备：{device}）"},
    "line.differs": {"en": "What differed: {text}", "zh": "不同之处：{text}"},
    "line.pitfall": {"en": "Pitfall: {text}", "zh": "陷阱：{text}"},
    "line.hint": {"en": "Hint: {text}", "zh": "提示：{text}"},
    "line.printed": {"en": "Your code printed: {text}", "zh": "你的代码输出了：{text}"},
    "line.next": {"en": "Next: {name} — {title}{lesson}", "zh": "下一步：{name} — {title}{lesson}"},
    "yours": {"en": "yours", "zh": "你的"},
    "expected": {"en": "expected", "zh": "应为"},
    "hint": {"en": "Hint", "zh": "提示"},
    "tutorial": {"en": "lesson {section}, {notes}", "zh": "讲义 {section}，{notes}"},   # notes: the lesson's file
    "truncated": {"en": "(truncated)", "zh": "（已截断）"},
    "where.result": {"en": "the result", "zh": "返回值"},
    "where.input": {"en": "the input `{name}` after the call", "zh": "调用之后的输入 `{name}`"},
    "where.grad": {"en": "the gradient of `{name}` after backward()", "zh": "backward() 之后 `{name}` 的梯度"},
    "where.after_input_write": {
        "en": "the result{path} after the input `{name}` was changed in place",
        "zh": "输入 `{name}` 被原地修改之后的返回值{path}",
    },
    "where.after_result_write": {
        "en": "the input `{name}` after your result was changed in place",
        "zh": "返回值被原地修改之后的输入 `{name}`",
    },
    "where.parameter": {"en": "the caller's parameter `{name}` after the call", "zh": "调用之后调用者的参数 `{name}`"},
    "where.parameter_grad": {"en": "the .grad of the caller's parameter `{name}` after the call",
                             "zh": "调用之后调用者的参数 `{name}` 的 .grad"},
    "where.probe": {"en": "the check `{name}`", "zh": "检查项 `{name}`"},
    "aspect.raises": {"en": "your function raised {error}", "zh": "你的函数抛出了异常 {error}"},
    "aspect.kind": {"en": "{where}: yours is {yours}, expected {expected}",
                    "zh": "{where}：你给出的是 {yours}，应当是 {expected}"},
    "aspect.subclass": {
        "en": "{where}: yours is a {yours}, expected a plain torch.Tensor (subclasses are not accepted)",
        "zh": "{where}：你给出的是 {yours}，应当是普通的 torch.Tensor（不接受子类）",
    },
    "aspect.length": {"en": "{where}: yours holds {yours} items, and should hold {expected}",
                      "zh": "{where}：你的有 {yours} 项，应当有 {expected} 项"},
    "aspect.keys": {"en": "{where}: your keys are {yours}, expected {expected}",
                    "zh": "{where}：你的键是 {yours}，应当是 {expected}"},
    "aspect.shape": {"en": "{where}: shape {yours}, expected {expected}",
                     "zh": "{where}：形状是 {yours}，应当是 {expected}"},
    "aspect.dtype": {"en": "{where}: dtype {yours}, expected {expected}",
                     "zh": "{where}：dtype 是 {yours}，应当是 {expected}"},
    "aspect.device": {"en": "{where}: device {yours}, expected {expected}",
                      "zh": "{where}：设备是 {yours}，应当是 {expected}"},
    "aspect.values": {"en": "{where}: values differ at {index}: yours {yours}, expected {expected}",
                      "zh": "{where}：数值在 {index} 处不同：你的结果是 {yours}，应当是 {expected}"},
    "aspect.value": {"en": "{where}: yours is {yours}, expected {expected}",
                     "zh": "{where}：你的结果是 {yours}，应当是 {expected}"},
    "aspect.requires_grad": {"en": "{where}: requires_grad is {yours}, expected {expected}",
                             "zh": "{where}：requires_grad 是 {yours}，应当是 {expected}"},
    "aspect.leaf": {"en": "{where}: is_leaf is {yours}, expected {expected}",
                    "zh": "{where}：is_leaf 是 {yours}，应当是 {expected}"},
    "aspect.history": {
        "en": "{where}: has autograd history (grad_fn) {yours}, expected {expected}",
        "zh": "{where}：是否带有计算图历史 grad_fn：你的结果是 {yours}，应当是 {expected}",
    },
    "aspect.contiguous": {"en": "{where}: is_contiguous() is {yours}, expected {expected}",
                          "zh": "{where}：is_contiguous() 是 {yours}，应当是 {expected}"},
    "aspect.same_object": {
        "en": "{where}: is the same tensor object as before: {yours}, expected {expected}",
        "zh": "{where}：是否仍是原来的张量对象：你的结果是 {yours}，应当是 {expected}",
    },
    "aspect.new_memory": {
        "en": "{where}: the same tensor object, but its data now lives in new memory (the old memory was replaced, "
              "not changed); expected the same memory, changed in place",
        "zh": "{where}：仍是原来的张量对象，但它的数据换到了一块新的内存里（原来的内存被替换了，而不是被修改）；"
              "应当是同一块内存，原地修改",
    },
    "aspect.training": {"en": "{where}: training flags {yours}, expected {expected}",
                        "zh": "{where}：training 标志是 {yours}，应当是 {expected}"},
    "aspect.caller_mode": {"en": "{where}: the model is left in {yours} mode, expected {expected} mode",
                           "zh": "{where}：模型被留在了 {yours} 模式，应当是 {expected} 模式"},
    "aspect.caller_replaced": {"en": "{where}: is no longer the caller's parameter object (it was replaced by a new tensor)",
                               "zh": "{where}：已经不是调用者原来的那个参数对象了（被换成了一个新张量）"},
    "aspect.caller_frozen": {"en": "{where}: requires_grad is {yours}, expected {expected}",
                             "zh": "{where}：requires_grad 是 {yours}，应当是 {expected}"},
    "aspect.caller_grad_left": {"en": "{where}: still holds a .grad; expected none (None)",
                                "zh": "{where}：仍然留着 .grad；应当没有（None）"},
    "aspect.caller_grad_missing": {"en": "{where}: has no .grad (None); expected a gradient",
                                   "zh": "{where}：没有 .grad（None）；应当有梯度"},
    "aspect.step_count": {"en": "{where}: {yours} losses, one per step; expected {expected} (the steps the contract asks for)",
                          "zh": "{where}：有 {yours} 个损失（每步一个）；应当是 {expected} 个（约定要求的步数）"},
    "aspect.loss_after_step": {
        "en": "{where}: each of your losses is the reference run's loss of the NEXT step: the losses are recorded "
              "after their update, not before it",
        "zh": "{where}：你的每个损失都是参考运行中“下一步”的损失：损失是在更新之后记录的，而不是在更新之前",
    },
    "aspect.procedure": {
        "en": "{where}: your run leaves the reference's run at step {step}: yours {yours}, expected {expected}",
        "zh": "{where}：你的运行在第 {step} 步偏离了参考运行：你的值为 {yours}，应当是 {expected}",
    },
    "aspect.device_mix_index": {
        "en": "your code indexed a tensor it made on the default device (the CPU) with a mask or indices on the "
              "inputs' device: it ran here because the inputs are on the CPU too; with the inputs on a GPU it "
              "raises \"indices should be either on cpu or on the same device as the indexed tensor (cpu)\"",
        "zh": "你的代码用位于输入所在设备上的掩码或下标，去索引它在默认设备（CPU）上创建的张量：这里能运行，只是因为"
              "输入也在 CPU 上；输入在 GPU 上时，它会报错 “indices should be either on cpu or on the same device as "
              "the indexed tensor (cpu)”",
    },
    "aspect.device_mix": {
        "en": "{op} combined a tensor your code made on the default device (the CPU) with a tensor on the "
              "inputs' device: it ran here because the inputs are on the CPU too; with the inputs on a GPU it "
              "raises \"Expected all tensors to be on the same device\"",
        "zh": "{op} 把你的代码在默认设备（CPU）上创建的张量，与位于输入所在设备上的张量放在了一起计算："
              "这里能运行，只是因为输入也在 CPU 上；输入在 GPU 上时，它会报错 “Expected all tensors to be on the same device”",
    },
    "aspect.backward": {"en": "backward() through your result: {yours}; expected: {expected}",
                        "zh": "对返回值调用 backward() 时，你的结果{yours}，参考答案的结果{expected}"},
    "aspect.rng": {
        "en": "the state of the global random number generators (torch's, NumPy's, Python's) {yours}; expected it "
              "{expected}",
        "zh": "调用之后，全局随机数生成器（torch 的、NumPy 的、Python 的）的状态{yours}，而它应当{expected}",
    },
    "rng.changed": {"en": "changed", "zh": "被改变了"},
    "rng.unchanged": {"en": "stayed as it was", "zh": "保持不变"},
    "backward.no_graph": {"en": "no autograd graph", "zh": "没有计算图"},
    "backward.ok": {"en": "works", "zh": "可以正常完成"},
    "backward.error": {"en": "{error}", "zh": "报错 {error}"},
    "kind.container": {"en": "a {name} of {count}", "zh": "含 {count} 个元素的 {name}"},
    "kind.tensor": {"en": "a torch.Tensor", "zh": "torch.Tensor"},
    "kind.ndarray": {"en": "a NumPy array", "zh": "NumPy 数组"},
    "kind.scalar": {"en": "a Python {name}", "zh": "Python {name}"},
    "kind.other": {"en": "a {name}", "zh": "{name}"},
    # --- generic pitfall explanations, used when a kata names none for that aspect -----
    "generic.raises": {
        "en": "Read the error message above: it usually names the dtype, device or shape that is off.",
        "zh": "仔细阅读上面的错误信息：它通常会指出哪里的 dtype、设备或形状不对。",
    },
    "generic.inputs": {
        "en": "Inputs must not be modified unless the function name ends in `_`: work on a copy (`.clone()`), "
              "and for `_` functions change the caller's tensor itself, in place.",
        "zh": "除非函数名以 `_` 结尾，否则不能修改输入：请在副本（`.clone()`）上操作；"
              "以 `_` 结尾的函数则要原地修改调用者的张量本身。",
    },
    "generic.caller": {
        "en": "After the call the caller's model must be as the contract leaves it: its mode (train/eval), "
              "which parameters require grad, the parameter objects themselves and what their .grad holds. "
              "A caller's model may come in with stale gradients, frozen parameters or in either mode.",
        "zh": "调用之后，调用者的模型必须处于约定所说的状态：它的模式（train/eval）、哪些参数 requires_grad、"
              "参数对象本身以及它们的 .grad 里有什么。调用者传进来的模型可能带着旧梯度、部分参数被冻结，或处于任一模式。",
    },
    "generic.step_count": {
        "en": "The contract asks for a given number of steps, one loss per step: your run took another number "
              "(a loop that starts at 1, or runs once more or once less than asked).",
        "zh": "约定要求走给定的步数，每一步记录一个损失：你的运行走的步数不对（循环从 1 开始，或者比要求的多走或少走了一次）。",
    },
    "generic.loss_after_step": {
        "en": "Each loss must be the one the step is taken on, measured before its update: yours are measured "
              "after it, so the run looks one step ahead and its first loss, at the start, is missing.",
        "zh": "每个损失都应当是这一步据以更新的那个损失，在更新之前测得：你的损失是在更新之后测的，"
              "于是整个运行看起来超前了一步，起点处的第一个损失也不见了。",
    },
    "generic.final_params": {
        "en": "Your losses follow the reference's run, but the parameters end elsewhere than the steps take them: "
              "an update too many or too few after the last recorded loss, or parameters set by other means than "
              "the steps themselves (a closed-form fit written into them).",
        "zh": "你的损失与参考运行一致，但参数最终停在了这些步骤不会到达的地方：在最后记录的损失之后多更新或少更新了一次，"
              "或者参数是用这些步骤以外的办法设置的（例如把闭式解直接写进参数）。",
    },
    "generic.procedure": {
        "en": "The contract describes a procedure (these steps, at this rate, from this start), and it is judged "
              "as one: your losses are not those of that run. Another update, another start, or numbers that no "
              "run of these steps produced (a closed-form fit with made-up losses is not gradient descent).",
        "zh": "约定描述的是一个过程（从这个起点出发，按这个学习率，走这些步），评判的也是这个过程：你的损失不是这样一次运行"
              "得到的损失。可能是更新方式不对、起点不对，或者这些数根本不是这些步骤算出来的（闭式解加上编造的损失不是梯度下降）。",
    },
    "generic.device_mix": {
        "en": "A tensor made without saying where (torch.ones, torch.zeros, torch.tensor ...) lands on the default "
              "device, the CPU, wherever the inputs are: the first computation that meets inputs on a GPU fails.",
        "zh": "创建时没有说明放在哪里的张量（torch.ones、torch.zeros、torch.tensor……）会落在默认设备 CPU 上，"
              "而不管输入在哪里：它一旦与位于 GPU 上的输入一起计算，就会失败。",
    },
    "generic.independent": {
        "en": "Your result and the input share memory (a view): a change to one shows in the other. "
              "Copy with `.clone()` (tensors) or `.copy()` (NumPy) where the contract asks for a copy, "
              "and share where it asks for sharing.",
        "zh": "返回值和输入共享内存（视图）：修改其中一个，另一个也会改变。约定要求副本时用 `.clone()`"
              "（张量）或 `.copy()`（NumPy）复制；要求共享时则不要复制。",
    },
    "generic.subclass": {
        "en": "Return a plain torch.Tensor (build it with torch functions), not a subclass.",
        "zh": "请返回普通的 torch.Tensor（用 torch 函数构造），不要返回子类。",
    },
    "generic.default": {
        "en": "Compare your result with the contract in the kata's docstring.",
        "zh": "请对照练习文档字符串中的约定检查你的结果。",
    },
    # --- statuses and grading ------------------------------------------------------------
    "status.passed": {"en": "passed", "zh": "通过"},
    "status.failed": {"en": "failed", "zh": "未通过"},
    "status.error": {"en": "error", "zh": "错误"},
    "status.todo": {"en": "todo", "zh": "待完成"},
    "todo.message": {
        "en": "not implemented yet: {function} still raises NotImplementedError. Open {file} and write it.",
        "zh": "尚未实现：{function} 仍然抛出 NotImplementedError。请打开 {file} 完成它。",
    },
    "error.not_found": {
        "en": "not found: {file} has no function `{function}` (keep the name and signature of the stub).",
        "zh": "未找到：{file} 中没有函数 `{function}`（请保留初始模板中的函数名和签名）。",
    },
    "error.no_file": {"en": "not found: {file} does not exist.", "zh": "未找到：{file} 不存在。"},
    "error.import": {
        "en": "{file} could not be imported: {error}",
        "zh": "无法导入 {file}：{error}",
    },
    "error.syntax": {
        "en": "syntax error in {file}, line {line}: {error}",
        "zh": "{file} 第 {line} 行有语法错误：{error}",
    },
    "error.timeout": {
        "en": "took longer than {seconds:g} s and was stopped (an endless loop, or waiting for input?)",
        "zh": "运行超过 {seconds:g} 秒，已被终止（是否有死循环，或在等待输入？）",
    },
    "error.crash": {
        "en": "the grading process died while running it ({reason})",
        "zh": "运行它时评分进程意外退出（{reason}）",
    },
    "error.exit": {
        "en": "your code tried to stop the program ({error}); functions must return a value",
        "zh": "你的代码试图结束程序（{error}）；函数应当返回结果",
    },
    "error.reference_import": {
        "en": "your code imports the reference solutions (`{module}`); write your own",
        "zh": "你的代码导入了参考答案（`{module}`）；请自己完成",
    },
    "error.reference": {
        "en": "the reference solution failed on this case: {error} (an instructor's problem, not yours)",
        "zh": "参考答案在此用例上出错：{error}（这是出题者的问题，不是你的）",
    },
    "error.stale_key": {
        "en": "the answer key is out of date for this kata (instructor: run `python grade.py freeze`)",
        "zh": "答案文件对这个练习已过期（教师：请运行 `python grade.py freeze`）",
    },
    "error.not_in_key": {
        "en": "this function is not in the answer key (instructor: run `python grade.py freeze`)",
        "zh": "答案文件中没有这个函数（教师：请运行 `python grade.py freeze`）",
    },
    "error.no_key": {
        "en": "there is no reference/ folder and no answer key (tests/answer_key.dat): nothing to grade against",
        "zh": "既没有 reference/ 目录，也没有答案文件（tests/answer_key.dat）：无法评分",
    },
    "error.deadline": {"en": "not graded before the deadline", "zh": "截止时间之前未能评分"},
    "error.secret_missing": {
        "en": "Official grading needs the instructor's secret KATA_SECRET, which is not set: tests/hidden_key.dat "
              "holds checks only it unlocks, so nothing is awarded. Instructor: grade where learner code cannot run "
              "first, with the secret: `KATA_SECRET=... python grade.py batch ...` on your machine, or the "
              "Gradescope or Codio release made with it (never a student repository's workflow). "
              "Student: `python grade.py` shows your practice score.",
        "zh": "正式评分需要教师的密钥 KATA_SECRET，但它没有设置：tests/hidden_key.dat 中的检查只有它能解开，因此不给分。"
              "教师：请在学生代码无法先运行的地方、带着密钥评分：在自己的机器上运行 `KATA_SECRET=... python grade.py "
              "batch ...`，或使用带密钥生成的 Gradescope、Codio 发布包（不要交给学生仓库的工作流）。"
              "学生：运行 `python grade.py` 可以看到练习分数。",
    },
    "error.secret_wrong": {
        "en": "KATA_SECRET does not open tests/hidden_key.dat: it is not the secret the katas were frozen with, "
              "so nothing is awarded. Instructor: set the secret KATA_SECRET to the value you froze with, or "
              "freeze (`KATA_SECRET=... python grade.py freeze`) and release again with the current one.",
        "zh": "KATA_SECRET 无法解开 tests/hidden_key.dat：它不是冻结练习时使用的密钥，因此不给分。教师：请把密钥 "
              "KATA_SECRET 设为冻结时使用的值，或用当前的值重新冻结（`KATA_SECRET=... python grade.py freeze`）并发布。",
    },
    "error.hidden_missing": {
        "en": "KATA_SECRET is set, but there is no tests/hidden_key.dat with the hidden checks, so nothing is "
              "awarded. Instructor: freeze with the secret (`KATA_SECRET=... python grade.py freeze`) and release "
              "again, or remove the secret KATA_SECRET to grade the public checks only.",
        "zh": "已设置 KATA_SECRET，但没有保存隐藏检查的 tests/hidden_key.dat，因此不给分。教师：请用该密钥冻结"
              "（`KATA_SECRET=... python grade.py freeze`）并重新发布，或删除密钥 KATA_SECRET 只评公开的检查。",
    },
    "error.hidden_stale": {
        "en": "tests/hidden_key.dat does not belong to tests/answer_key.dat (frozen at another time, or damaged), "
              "so nothing is awarded. Instructor: freeze again with the secret KATA_SECRET "
              "(`KATA_SECRET=... python grade.py freeze`) and release.",
        "zh": "tests/hidden_key.dat 与 tests/answer_key.dat 不匹配（不是同一次冻结生成的，或已损坏），因此不给分。"
              "教师：请用密钥 KATA_SECRET 重新冻结（`KATA_SECRET=... python grade.py freeze`）并发布。",
    },
    "error.hidden_plan": {
        "en": "the hidden checks for KATA_SECRET are planned from tests/answer_key.dat, which is missing or out "
              "of date, so nothing is awarded. Instructor: run `KATA_SECRET=... python grade.py freeze`.",
        "zh": "KATA_SECRET 对应的隐藏检查是根据 tests/answer_key.dat 安排的，而它不存在或已过期，因此不给分。"
              "教师：请运行 `KATA_SECRET=... python grade.py freeze`。",
    },
    "hidden.differs": {
        "en": "a check run only in official grading found a different `{aspect}` (its expected value is not "
              "shown): your function passes the public checks but not every input; try it on other shapes and values",
        "zh": "一项只在正式评分中运行的检查发现 `{aspect}` 不同（不显示应有的值）：你的函数通过了公开的检查，"
              "但并非对所有输入都正确；请用其他形状和数值试试",
    },
    "hidden.not_run": {
        "en": "{count} more checks run only in official grading (this is a practice score).",
        "zh": "另有 {count} 项检查只在正式评分中运行（这是练习分数）。",
    },
    "error.protocol": {
        "en": "the grader received something it did not ask for ({what}). Your code wrote to the grader's "
              "channel or replaced part of the grader; nothing is awarded for this function.",
        "zh": "评分程序收到了它没有请求的内容（{what}）。你的代码向评分通道写入了数据，或替换了评分程序的一部分；"
              "这个函数不得分。",
    },
    "error.no_reference": {
        "en": "there is no reference/ folder here to grade against (use --against answer-key).",
        "zh": "这里没有可供比较的 reference/ 文件夹（请使用 --against answer-key）。",
    },
    "error.no_torch": {
        "en": "PyTorch is not installed for {python}. Activate the katas' virtual environment first: {command} "
              "(then run grade.py again).",
        "zh": "{python} 没有安装 PyTorch。请先激活练习的虚拟环境：{command}（然后再运行 grade.py）。",
    },
    "error.no_torch_in_venv": {
        "en": "PyTorch is not installed in this virtual environment ({python}). Install it as the README's "
              "\"Quick start\" says for your system, then run grade.py again.",
        "zh": "这个虚拟环境（{python}）里没有安装 PyTorch。请按 README“快速开始”中对应你的系统的命令安装它，"
              "然后再运行 grade.py。",
    },
    "error.no_torch_no_venv": {
        "en": "PyTorch is not installed for {python}, and {folder} has no virtual environment (.venv) yet. "
              "Create it and install PyTorch with the first command of the README's \"Quick start\" for your "
              "system, then run grade.py again.",
        "zh": "{python} 没有安装 PyTorch，而且 {folder} 里还没有虚拟环境（.venv）。请用 README“快速开始”中对应你的"
              "系统的第一条命令创建它并安装 PyTorch，然后再运行 grade.py。",
    },
    "sandbox.none": {
        "en": "Learner code ran without a sandbox (bubblewrap is not available here): fine for practice.",
        "zh": "学习者代码在没有沙箱的情况下运行（此处没有 bubblewrap）：用于练习没有问题。",
    },
    "batch.no_sandbox": {
        "en": "batch: bubblewrap is not available, so submissions would run unsandboxed and could reach this "
              "machine's files. Install it (Debian/Ubuntu: `apt-get install bubblewrap`) or pass --no-sandbox. "
              "Installed but refused (Ubuntu 23.10 and newer restrict user namespaces)? Allow them: "
              "`sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`.",
        "zh": "batch：没有可用的 bubblewrap，提交的代码将在没有沙箱的情况下运行，可以访问本机文件。"
              "请安装它（Debian/Ubuntu：`apt-get install bubblewrap`），或加上 --no-sandbox。"
              "已安装却无法运行（Ubuntu 23.10 及更新版本限制了用户命名空间）？请允许："
              "`sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`。",
    },
    "skipped.not_in_key": {
        "en": "{device} checks skipped: the answer key was made without that device",
        "zh": "已跳过 {device} 检查：答案文件生成时没有这个设备",
    },
    "skipped.cuda": {"en": "CUDA checks skipped: no GPU here", "zh": "已跳过 CUDA 检查：本机没有 GPU"},
    "integrity.changed": {
        "en": "Grading files differ from the template: {files}. Restore them with `git checkout -- {paths}` "
              "(and delete added ones); official results award 0 points until they match.",
        "zh": "评分文件与学生模板不一致：{files}。请用 `git checkout -- {paths}` 恢复（并删除新增的文件）；"
              "在恢复之前，正式成绩记为 0 分。",
    },
    "reset.backup": {
        "en": "your file was saved to {path} — to undo the reset, run: {command}",
        "zh": "你的文件已备份到 {path} —— 要撤销这次重置，请运行：{command}",
    },
    "reset.only_katas": {
        "en": "reset restores stubs in katas/ only, and never writes into another folder: --solutions {folder} "
              "is refused (nothing was changed)",
        "zh": "reset 只恢复 katas/ 里的初始模板，从不写入其他文件夹：不接受 --solutions {folder}（没有做任何修改）",
    },
    "reset.done": {"en": "restored the stub of {what}", "zh": "已恢复 {what} 的初始模板"},
    "reset.no_stub": {
        "en": "no pristine stub of {kata} in the answer key (instructor: run `python grade.py freeze`)",
        "zh": "答案文件中没有 {kata} 的初始模板（教师：请运行 `python grade.py freeze`）",
    },
    "reset.refused": {"en": "nothing was changed: {error}", "zh": "没有做任何修改：{error}"},
    "watch.waiting": {
        "en": "watching {folder} ({mode}): save a kata file to re-grade it; Ctrl-C to stop",
        "zh": "正在监视 {folder}（{mode}）：保存练习文件即可重新评分；按 Ctrl-C 退出",
    },
    "watch.events": {"en": "file events", "zh": "文件事件"},
    "watch.polling": {"en": "polling", "zh": "轮询"},
    "watch.moved_on": {
        "en": "{done}: every function passes. Watching {kata} too now (save it to grade it again).",
        "zh": "{done}：所有函数都已通过。现在也开始监视 {kata}（保存它就会重新评分）。",
    },
    "watch.bye": {"en": "stopped watching. Your files are as you saved them.", "zh": "已停止监视。你的文件保持保存时的样子。"},
    "grade.score": {"en": "score", "zh": "得分"},
    "grade.next": {"en": "Next", "zh": "下一步"},
    "grade.all_done": {"en": "All done, well done!", "zh": "全部完成，干得漂亮！"},
    "grade.run_hint": {
        "en": "see the details with: pytest {test_path} -k {function}",
        "zh": "查看详情：pytest {test_path} -k {function}",
    },
    "grade.unknown_selector": {
        "en": "unknown kata or function '{selector}'{suggestion}. Name a lesson, a kata (its number is enough: "
              "python grade.py k05) or kata.function; the katas, lesson by lesson: {katas}",
        "zh": "未知的练习或函数 '{selector}'{suggestion}。请写一课、一个练习（写编号就够了：python grade.py k05）"
              "或 练习.函数；各课的练习：{katas}",
    },
    "grade.command_first": {
        "en": "'{command}' is a command, not a kata: write it first, as in {line}",
        "zh": "'{command}' 是一个命令，不是练习：请把它写在最前面，例如 {line}",
    },
    "grade.kata_range": {"en": "{lesson}: {first} to {last}", "zh": "{lesson}：{first} 到 {last}"},
    "grade.kata_one": {"en": "{lesson}: {first}", "zh": "{lesson}：{first}"},
    "grade.did_you_mean": {"en": " (did you mean `{name}`?)", "zh": "（你是不是想输入 `{name}`？）"},
    # --- added with the second lesson: the lesson (pack) each kata belongs to ----------------------
    "grade.lesson": {
        "en": "{lesson}{pack}: {title} (only this lesson: python grade.py {lesson}; notes: {notes})",
        "zh": "{lesson}{pack}：{title}（只评这一课：python grade.py {lesson}；讲义：{notes}）",
    },
    "grade.valid_lessons": {"en": "; lessons: {lessons}", "zh": "；可用的课：{lessons}"},
    "grade.next_lesson_only": {
        "en": "this lesson alone, and its next function first: python grade.py {lesson}",
        "zh": "只评这一课，并从它的下一个函数开始：python grade.py {lesson}",
    },
    # --- added with the lesson notes: imports, partial runs, what each probe observes ---------
    "generic.name_error_import": {
        "en": "Python does not know the name `{name}` here: the file is missing an import. Add `{line}` at the "
              "top of your kata file (next to `import torch`).",
        "zh": "Python 在这里不认识名字 `{name}`：文件里缺少导入语句。请在练习文件顶部（`import torch` 旁边）加上 `{line}`。",
    },
    "generic.name_error": {
        "en": "Python does not know the name `{name}`: define it before you use it, import it, or check its spelling.",
        "zh": "Python 不认识名字 `{name}`：请先定义它再使用、导入它，或者检查拼写。",
    },
    "grade.selection_done": {
        "en": "Everything graded here passes. `python grade.py` grades every kata.",
        "zh": "这次评分的函数全部通过。运行 `python grade.py` 可以为所有练习评分。",
    },
    "probe.one_element": {
        "en": "your result after its first element alone was set to -1",
        "zh": "只把返回值的第一个元素设为 -1 之后的返回值",
    },
    "probe.second_call": {
        "en": "a second call with the same f and x", "zh": "用相同的 f 和 x 第二次调用的结果",
    },
    "device.probe.gpu_tensor": {"en": "cuda:0, simulated on the CPU", "zh": "cuda:0，在 CPU 上模拟"},
    "probe.gpu_tensor": {
        "en": "your function given a GPU tensor (simulated where there is no GPU)",
        "zh": "把 GPU 张量（没有 GPU 时为模拟的）交给你的函数时",
    },
    "probe.graph_during_forward": {
        "en": "whether autograd was recording while the model ran", "zh": "模型运行时自动求导是否在记录",
    },
    "probe.batch_limit": {
        "en": "the most rows the model saw in one call", "zh": "模型一次调用中看到的最多行数",
    },
    "probe.python_random": {
        "en": "three random.random() draws right after the call", "zh": "调用之后立即取的三个 random.random() 随机数",
    },
    "probe.numpy_random": {
        "en": "three np.random.rand() draws right after the call", "zh": "调用之后立即取的三个 np.random.rand() 随机数",
    },
    "probe.torch_random": {
        "en": "three torch.rand() draws right after the call", "zh": "调用之后立即取的三个 torch.rand() 随机数",
    },
    "probe.cuda_random": {
        "en": "whether the GPU's generator draws what the seed gives it",
        "zh": "GPU 的随机数生成器取出的数是否就是该种子给出的数",
    },
    "probe.summed_micro_batches": {
        "en": "the length of your step, measured in SGD steps on the mean micro-batch gradient",
        "zh": "你这一步的长度（以“用各微批次的平均梯度做一步 SGD”为单位）",
    },
    "probe.step_size": {
        "en": "the length of your step, measured in SGD steps on the mean micro-batch gradient",
        "zh": "你这一步的长度（以“用各微批次平均梯度做一步 SGD”为单位）",
    },
    "probe.grad_mode": {
        "en": "whether autograd records after the call (torch.is_grad_enabled())",
        "zh": "调用之后自动求导是否仍在记录，即 torch.is_grad_enabled() 的值",
    },
    "probe.default_device": {
        "en": "the device torch makes tensors on by default after the call (torch.get_default_device())",
        "zh": "调用之后 torch 默认在哪个设备上创建张量（torch.get_default_device()）",
    },
    "probe.deterministic": {
        "en": "whether deterministic algorithms are on after the call (torch.are_deterministic_algorithms_enabled())",
        "zh": "调用之后确定性算法是否开着（torch.are_deterministic_algorithms_enabled()）",
    },
    "probe.deterministic_throughout": {
        "en": "whether deterministic algorithms stayed on during the whole call",
        "zh": "整个调用过程中确定性算法是否一直开着",
    },
    "probe.warn_only": {
        "en": "whether the deterministic mode only warns (torch.is_deterministic_algorithms_warn_only_enabled())",
        "zh": "确定性模式是否只给出警告（torch.is_deterministic_algorithms_warn_only_enabled()）",
    },
    "probe.cudnn_benchmark": {
        "en": "torch.backends.cudnn.benchmark after the call", "zh": "调用之后的 torch.backends.cudnn.benchmark",
    },
    # --- what the second lesson's probes observe ------------------------------------------------
    "probe.model_runs": {"en": "how many forward passes the model made", "zh": "模型做了几次前向传播"},
    "probe.after_next_backward": {
        "en": "the gradients you returned, after the caller's next backward() through the model",
        "zh": "调用者再对模型做一次 backward() 之后，你返回的梯度",
    },
    "probe.encoder_runs": {
        "en": "how many forward passes the encoder, which is not trained, made", "zh": "不参与训练的编码器做了几次前向传播",
    },
    "probe.encoder_grads": {
        "en": "whether any gradient reached the parameters of the encoder, which is not trained",
        "zh": "是否有梯度传到了不参与训练的编码器的参数上",
    },
    "probe.trainable_parameters": {
        "en": "whether each parameter of your layer is a leaf that requires grad",
        "zh": "你的层的每个参数是否都是需要梯度的叶子张量",
    },
    "probe.parameter_grads": {
        "en": "the model's parameters that hold a gradient after the call", "zh": "调用之后带有梯度的模型参数",
    },
    "probe.weight_grads": {
        "en": "the gradients a backward() through your loss leaves on the model's parameters",
        "zh": "对你的损失做 backward() 之后模型参数上的梯度",
    },
    "probe.requires_grad_flags": {
        "en": "each parameter's requires_grad after the call", "zh": "调用之后每个参数的 requires_grad",
    },
    "probe.graphs_kept": {
        "en": "how many steps' graphs your code kept alive at once, at most (during the loop or after it)",
        "zh": "你的代码最多同时留住了几步的计算图（循环中或循环结束后）",
    },
    "probe.graph_during_validation": {
        "en": "whether autograd recorded during the validation pass (the model in evaluation mode)",
        "zh": "验证时（模型处于评估模式）自动求导是否在记录",
    },
    "probe.least_squares_fit": {
        "en": "how far the parameters you reached are from the least-squares fit (counted at the parameter farthest from it)",
        "zh": "你得到的参数离最小二乘解有多远（按离得最远的那个参数算）",
    },
    "probe.loss_falls": {"en": "whether your losses fall at every step", "zh": "你的损失是否每一步都下降"},
    "probe.first_loss": {
        "en": "your first loss (the loss at the start, w = 0 and b = 0, is the mean of y ** 2)",
        "zh": "你的第一个损失（起点 w = 0、b = 0 处的损失就是 y ** 2 的平均值）",
    },
    # --- the third lesson's probes ------------------------------------------------------------
    "probe.optimizer_holds_model": {
        "en": "whether the optimizer still holds the model's own parameter objects after your call",
        "zh": "你的调用结束后，优化器持有的是否仍是模型自己的参数对象",
    },
    "probe.optimizer_state": {
        "en": "the optimizer's state for each of the model's parameters (its step count aside): values, dtype and device",
        "zh": "优化器为模型的每个参数保存的状态（步数计数除外）：值、dtype 和设备",
    },
    "probe.training_goes_on": {
        "en": "two more steps of the caller's optimizer after your call: their losses and the model's parameters",
        "zh": "你的调用之后，调用者的优化器再走两步：这两步的损失和模型的参数",
    },
    "probe.weights_only": {
        "en": "whether your checkpoint loads with torch.load(..., weights_only=True)",
        "zh": "你的检查点能否用 torch.load(..., weights_only=True) 加载",
    },
    "probe.checkpoint": {
        "en": "what your checkpoint holds: the model's tensors, the optimizer's state and its learning rate",
        "zh": "你的检查点里存了什么：模型的张量、优化器的状态和它的学习率",
    },
    "probe.hooks_left": {
        "en": "how many forward hooks the caller's model holds after your call (the caller's own included)",
        "zh": "你的调用结束后，调用者的模型上有多少个前向钩子（包括调用者自己的）",
    },
    "probe.scaled": {
        "en": "your module's output on a fixed input", "zh": "你的模块对一个固定输入的输出",
    },
    "probe.saved": {
        "en": "how many entries your module's state_dict() holds", "zh": "你的模块的 state_dict() 里有多少项",
    },
    "probe.full_batches": {
        "en": "whether every batch of an epoch of your loader is full", "zh": "你的 DataLoader 一个 epoch 的每个批次是否都是满的",
    },
    "probe.covers": {
        "en": "whether an epoch of your loader visits distinct samples, as many as fit in full batches",
        "zh": "你的 DataLoader 的一个 epoch 是否访问了互不相同的样本，数量等于完整批次能装下的个数",
    },
    "probe.reshuffled": {
        "en": "whether the second epoch of your loader comes in another order than the first",
        "zh": "你的 DataLoader 的第二个 epoch 的顺序是否与第一个不同",
    },
    "probe.reproducible": {
        "en": "whether further calls with the same seed give the same order again",
        "zh": "用同一个种子再次调用时，是否再次给出同样的顺序",
    },
    "probe.seeded": {
        "en": "whether a call with another seed gives another order", "zh": "换一个种子调用时，是否给出另一种顺序",
    },
    "probe.global_rng": {
        "en": "whether iterating your loader left the global random number generator as it was",
        "zh": "遍历你的 DataLoader 之后，全局随机数生成器是否保持原样",
    },
    "probe.partition": {
        "en": "whether your two parts together hold every index once", "zh": "你的两部分合起来是否把每个下标正好包含一次",
    },
    "probe.shuffled": {
        "en": "whether your validation indices are other than the last rows", "zh": "你的验证下标是否不只是最后几行",
    },
    "probe.finite": {
        "en": "whether both of your standardised splits hold only finite values",
        "zh": "你标准化后的两个集合是否只包含有限值",
    },
    "probe.training_split": {"en": "your standardised training split", "zh": "你标准化后的训练集"},
    "probe.test_split": {"en": "your standardised test split", "zh": "你标准化后的测试集"},
    "probe.graph_during_evaluation": {
        "en": "whether autograd was recording while the model ran", "zh": "模型运行时自动求导是否在记录",
    },
    "probe.training_mode": {
        "en": "whether every forward pass of your training loop ran in training mode",
        "zh": "你的训练循环的每一次前向计算是否都在训练模式下进行",
    },
    # --- grade.py hint, where a template's hints were capped (release --max-hint-level) ---------
    "hint.no_more": {
        "en": "{function}: no more hints are available (hint levels here: 1-{levels})",
        "zh": "{function}：没有更多提示了（这里可用的提示级别：1-{levels}）",
    },
    "hint.none": {
        "en": "{function}: no hints are available here", "zh": "{function}：这里没有可用的提示",
    },
    "reporter.cut": {
        "en": "[… cut here: the whole message is on the run's summary page]",
        "zh": "[……在此截断：完整信息见运行摘要页面]",
    },
    "practice.ci": {
        "en": "Practice feedback: public checks only. Your instructor makes the official grade.",
        "zh": "练习反馈：只运行公开检查。正式成绩由老师评定。",
    },
    # --- the class report (grade.py report, batch --report): what an instructor reads ------------
    "title.name_error": {"en": "A name Python does not know (a missing import or a typo)",
                         "zh": "Python 不认识的名字（缺少导入或拼写错误）"},
    "report.title": {"en": "Class report", "zh": "班级报告"},
    "report.source": {"en": "From the gradebook {file}", "zh": "来自成绩册 {file}"},
    "report.glance": {"en": "The class at a glance", "zh": "全班概况"},
    "report.submissions": {"en": "Submissions", "zh": "提交数"},
    "report.median": {"en": "Median score", "zh": "分数中位数"},
    "report.quartiles": {"en": "Quartiles", "zh": "四分位数"},
    "report.out_of": {"en": "out of {max}", "zh": "满分 {max}"},
    "report.histogram": {"en": "Scores, as a share of the maximum: how many submissions in each tenth",
                         "zh": "分数占满分的比例：每一档各有多少份提交"},
    "report.progress": {"en": "Per kata and function", "zh": "各练习与函数"},
    "report.solved": {"en": "solved", "zh": "已通过"},
    "report.failing": {"en": "attempted, failing", "zh": "尝试过但未通过"},
    "report.not_started": {"en": "not started", "zh": "未开始"},
    "report.pitfalls": {"en": "The pitfalls the class fell into", "zh": "全班踩过的坑"},
    "report.pitfalls_intro": {
        "en": "Largest first. Share: of the submissions that attempted the function (solved it or failed it). "
              "Example: the call and what differed, from one submission (not named).",
        "zh": "按提交数从多到少排列。比例：占尝试过该函数（通过或未通过）的提交的比例。"
              "示例：来自某一份提交（不具名）的调用及其不同之处。",
    },
    "report.no_pitfalls": {"en": "No submission failed a check: there is no pitfall to show.",
                           "zh": "没有提交未通过检查：没有可显示的陷阱。"},
    "report.col_pitfall": {"en": "Pitfall", "zh": "陷阱"},
    "report.col_function": {"en": "Function", "zh": "函数"},
    "report.col_count": {"en": "Submissions", "zh": "提交数"},
    "report.col_share": {"en": "Share of attempts", "zh": "占尝试者比例"},
    "report.col_section": {"en": "Lesson", "zh": "讲义"},
    "report.col_example": {"en": "Example", "zh": "示例"},
    "report.teach_next": {"en": "What to teach next", "zh": "接下来讲什么"},
    "report.teach_item": {
        "en": "{share} of the submissions that attempted {function} ({count} of {attempted}): {title} — lesson {section}",
        "zh": "尝试过 {function} 的提交中有 {share}（{attempted} 份中的 {count} 份）：{title} —— 讲义 {section}",
    },
    "report.roster": {"en": "Every submission", "zh": "每一份提交"},
    "report.col_submission": {"en": "Submission", "zh": "提交"},
    "report.col_score": {"en": "Score", "zh": "分数"},
    "report.col_solved": {"en": "Functions solved", "zh": "已通过的函数"},
    "report.written": {"en": "class report -> {path}", "zh": "班级报告 -> {path}"},
    "report.csv": {
        "en": "report: {file} is a CSV gradebook, which holds points only; the report needs the JSON one: "
              "python grade.py batch DIR --out gradebook.json (add --report class-report.html to draw it at once)",
        "zh": "report：{file} 是 CSV 成绩册，只有分数；报告需要 JSON 成绩册：python grade.py batch DIR --out "
              "gradebook.json（加上 --report class-report.html 可同时生成报告）",
    },
    "report.not_a_gradebook": {
        "en": "report: {file} is not a JSON gradebook of grade.py batch ({why})",
        "zh": "report：{file} 不是 grade.py batch 生成的 JSON 成绩册（{why}）",
    },
    "report.unreadable": {"en": "report: cannot read {file} ({why})", "zh": "report：无法读取 {file}（{why}）"},
    "report.unwritable": {"en": "report: cannot write {file} ({why})", "zh": "report：无法写入 {file}（{why}）"},
    # --- the instructor's term: what the report adds, and each student's feedback ------------------
    "report.graded": {"en": "Graded {when} (UTC) by project {project}: {how}.",
                      "zh": "评分时间 {when}（UTC），项目版本 {project}：{how}。"},
    "report.official": {"en": "official grading, hidden checks included", "zh": "正式评分，包括隐藏检查"},
    "report.practice": {"en": "practice grading, public checks only", "zh": "练习评分，只有公开检查"},
    "report.mixed": {"en": "some rows official, some practice", "zh": "部分为正式评分，部分为练习评分"},
    "report.shared": {"en": "Shared solutions", "zh": "相同的解答"},
    "report.shared_intro": {
        "en": "Submissions whose file for a kata is the same once comments and whitespace are removed (and is not the "
              "stub). A pointer for a conversation, not a verdict: short katas have few ways to be right, students may "
              "work together where the course allows it, and a shared file says nothing about who wrote it.",
        "zh": "这些提交中某个练习的文件在去掉注释和空白之后完全相同（且不是初始模板）。这只是和学生谈一谈的线索，"
              "不是结论：短小的练习本来就没有几种正确写法，课程允许时学生可以合作，而且相同的文件说明不了是谁写的。",
    },
    "report.no_shared": {"en": "No two submissions share a kata file.", "zh": "没有两份提交的练习文件相同。"},
    "report.common": {"en": "{count} submissions: a common way to write it (show them)",
                      "zh": "{count} 份提交：这是常见的写法（点击展开）"},
    "report.col_kata": {"en": "Kata", "zh": "练习"},
    "report.col_together": {"en": "Submissions sharing it", "zh": "共用的提交"},
    "report.col_student": {"en": "Student", "zh": "学生"},
    "report.col_late": {"en": "Late penalty", "zh": "迟交扣分"},
    "feedback.title": {"en": "Feedback on your katas: {name}", "zh": "练习反馈：{name}"},
    "feedback.graded": {"en": "Graded {when} (UTC): {how}.", "zh": "评分时间 {when}（UTC）：{how}。"},
    "feedback.official": {"en": "the official grade, hidden checks included", "zh": "正式成绩，包括隐藏检查"},
    "feedback.practice": {"en": "a practice grade, public checks only", "zh": "练习成绩，只有公开检查"},
    "feedback.on_time": {"en": "Submitted {at}, by the deadline {deadline}.", "zh": "提交时间 {at}，没有超过截止时间 {deadline}。"},
    "feedback.late": {
        "en": "Submitted {at}, after the deadline {deadline}: {factor}% of the {raw} points earned count, {final}.",
        "zh": "提交时间 {at}，晚于截止时间 {deadline}：所得的 {raw} 分按 {factor}% 计算，记 {final} 分。",
    },
    "feedback.no_submission": {"en": "No submission of yours was found.", "zh": "没有找到你的提交。"},
    "feedback.notes": {"en": "Notes from the grader", "zh": "评分说明（评分程序记录的原文）"},
    "feedback.col_function": {"en": "Function", "zh": "函数"},
    "feedback.col_result": {"en": "Result", "zh": "结果"},
    "feedback.col_points": {"en": "Points", "zh": "得分"},
    "feedback.not_graded_status": {"en": "not graded", "zh": "未评分"},
    "feedback.to_do": {"en": "What to work on", "zh": "接下来要改的"},
    "feedback.went_wrong": {"en": "What went wrong: {text}", "zh": "出了什么问题：{text}"},
    "feedback.lesson": {"en": "Read: {section}", "zh": "请阅读：{section}"},
    "feedback.not_started": {"en": "not started", "zh": "未开始"},
    "feedback.not_started_list": {"en": "Not started yet: {functions}.", "zh": "还没有开始：{functions}。"},
    "feedback.all_passed": {"en": "Every function passes: well done.", "zh": "所有函数都通过了，做得好。"},
    "feedback.more": {
        "en": "In your repository, `python grade.py` runs the same checks (the public ones) and `python grade.py hint "
              "FUNCTION --level 2` gives the next hint.",
        "zh": "在你的仓库里运行 `python grade.py` 会做同样的检查（公开的部分），运行 `python grade.py hint 函数名 --level 2` "
              "可以看到下一级提示。",
    },
}


def shortened(text: str, limit: int, mark: str = "...") -> str:
    """``text`` if it has at most ``limit`` characters, else cut so that with ``mark`` it has ``limit``."""
    return text if len(text) <= limit else text[:limit - len(mark)] + mark


def message(key: str, lang: str = "en", **fields) -> str:
    """Return the message ``key`` in ``lang`` (English when missing), formatted with ``fields``."""
    entry = MESSAGES[key]
    template = entry.get(lang) or entry["en"]
    return template.format(**fields) if fields else template


def pick(texts, lang: str = "en") -> str:
    """Pick one language out of a ``{"en": ..., "zh": ...}`` table (plain strings pass through)."""
    if isinstance(texts, str):
        return texts
    return texts.get(lang) or texts.get("en") or ""


def default_language() -> str:
    """``KATA_LANG`` if set, else Chinese for a ``zh_*`` locale, else English."""

    chosen = os.environ.get("KATA_LANG", "").lower()
    if chosen in LANGUAGES:
        return chosen
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value:
            return "zh" if value.lower().startswith(("zh", "chinese")) else "en"
    try:
        current = locale.getlocale()[0] or ""
    except ValueError:
        current = ""
    # POSIX names Chinese locales zh_CN...; Windows names them "Chinese (Simplified)_China".
    return "zh" if current.lower().startswith(("zh", "chinese")) else "en"
