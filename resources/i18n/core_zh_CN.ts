<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
  <context>
    <name>core</name>
    <message>
      <source>
Cancelled; nothing was written under {path}.</source>
      <translation>
已取消；{path} 下没有写入任何内容。</translation>
    </message>
    <message>
      <source>
Nothing was changed.</source>
      <translation>
没有做任何更改。</translation>
    </message>
    <message>
      <source>
Step failed: {step}
{reason}</source>
      <translation>
步骤失败：{step}
{reason}</translation>
    </message>
    <message>
      <source>      NVML changed the choice: {old} -&gt; {new}</source>
      <translation>      NVML 改变了选择：{old} -&gt; {new}</translation>
    </message>
    <message>
      <source>      NVML gave no readable answer; keeping the plan from {source}</source>
      <translation>      NVML 没有给出可读的回答；保留来自 {source} 的计划</translation>
    </message>
    <message>
      <source>      reusing the existing environment</source>
      <translation>      沿用现有环境</translation>
    </message>
    <message>
      <source>      the environment is incomplete (an interrupted install?): building it again</source>
      <translation>      环境不完整（安装被中断？）：重新构建</translation>
    </message>
    <message>
      <source>      {index} serves torch {torch} for this Python</source>
      <translation>      {index} 为此 Python 提供 torch {torch}</translation>
    </message>
    <message>
      <source>    … and {n} more (--json lists them all)</source>
      <translation>    … 还有 {n} 条（--json 会全部列出）</translation>
    </message>
    <message>
      <source>   # or train on another GPU: {fix}</source>
      <translation>   # 或改用另一块 GPU 训练：{fix}</translation>
    </message>
    <message>
      <source>  App        {prefix}</source>
      <translation>  应用       {prefix}</translation>
    </message>
    <message>
      <source>  Cannot install: {text}</source>
      <translation>  无法安装：{text}</translation>
    </message>
    <message>
      <source>  Command    {launcher}</source>
      <translation>  命令       {launcher}</translation>
    </message>
    <message>
      <source>  Commands</source>
      <translation>  命令</translation>
    </message>
    <message>
      <source>  Disk       needs about {needed:.1f} GB; {free}</source>
      <translation>  磁盘       需要约 {needed:.1f} GB；{free}</translation>
    </message>
    <message>
      <source>  Driver     {driver} (CUDA {cuda})</source>
      <translation>  驱动       {driver}（CUDA {cuda}）</translation>
    </message>
    <message>
      <source>  GPUs       {gpus}   [read with {source}]</source>
      <translation>  GPU        {gpus}   [通过 {source} 读取]</translation>
    </message>
    <message>
      <source>  PyTorch    {index}: {torch} from {url}</source>
      <translation>  PyTorch    {index}：{torch}，来自 {url}</translation>
    </message>
    <message>
      <source>  Python     {exe} ({version})</source>
      <translation>  Python     {exe}（{version}）</translation>
    </message>
    <message>
      <source>  Shortcuts  {menu}{desktop}</source>
      <translation>  快捷方式   {menu}{desktop}</translation>
    </message>
    <message>
      <source>  Warning: {text}</source>
      <translation>  警告：{text}</translation>
    </message>
    <message>
      <source>  Why        {reason}</source>
      <translation>  原因       {reason}</translation>
    </message>
    <message>
      <source>  build    {tag} — {reason}</source>
      <translation>  版本    {tag} — {reason}</translation>
    </message>
    <message>
      <source>  checked {files} files in {s} s ({cached} unchanged since the last check)</source>
      <translation>  在 {s} 秒内检查了 {files} 个文件（{cached} 个自上次检查后未变）</translation>
    </message>
    <message>
      <source>  classes: {list}</source>
      <translation>  类别：{list}</translation>
    </message>
    <message>
      <source>  command  {command}</source>
      <translation>  命令    {command}</translation>
    </message>
    <message>
      <source>  copied as it is (unreadable): {image}: {reason}</source>
      <translation>  原样复制（无法读取）：{image}：{reason}</translation>
    </message>
    <message>
      <source>  images: {linked} hard-linked, {copied} copied</source>
      <translation>  图片：{linked} 张硬链接，{copied} 张复制</translation>
    </message>
    <message>
      <source>  note: {text}</source>
      <translation>  注意：{text}</translation>
    </message>
    <message>
      <source>  skipped {id}: {why}</source>
      <translation>  已跳过 {id}：{why}</translation>
    </message>
    <message>
      <source>  spelled several ways: {names} (merge: --merge-variants or --rename)</source>
      <translation>  同一类别有多种写法：{names}（合并：--merge-variants 或 --rename）</translation>
    </message>
    <message>
      <source>  the source's own split (kept): {split}</source>
      <translation>  源数据自带的划分（保留）：{split}</translation>
    </message>
    <message>
      <source>  train {train} · val {val} · test {test}; {grouped} near-identical frames kept together, {kept} images in the source's own split</source>
      <translation>  训练 {train} · 验证 {val} · 测试 {test}；{grouped} 张几乎相同的帧放在同一划分，{kept} 张图片沿用源数据自带的划分</translation>
    </message>
    <message>
      <source>  {n} classes: {names}</source>
      <translation>  {n} 个类别：{names}</translation>
    </message>
    <message>
      <source>  {split}: {images} images, {instances} objects, {bg} backgrounds</source>
      <translation>  {split}：{images} 张图片，{instances} 个目标，{bg} 张背景图</translation>
    </message>
    <message>
      <source>  … and {n} more (--json lists them all)</source>
      <translation>  … 还有 {n} 条（--json 会全部列出）</translation>
    </message>
    <message>
      <source>  → next run: --{field} {value} ({reason})</source>
      <translation>  → 下次训练：--{field} {value}（{reason}）</translation>
    </message>
    <message>
      <source> ('invalid image format')</source>
      <translation>（'invalid image format'）</translation>
    </message>
    <message>
      <source> (and {n} more like it)</source>
      <translation>（另有 {n} 处类似）</translation>
    </message>
    <message>
      <source> (best)</source>
      <translation>（最佳）</translation>
    </message>
    <message>
      <source> (dry run: nothing was changed)</source>
      <translation>（试运行：没有做任何更改）</translation>
    </message>
    <message>
      <source> (loaded {kernel}, on disk {library})</source>
      <translation>（已加载 {kernel}，磁盘上为 {library}）</translation>
    </message>
    <message>
      <source> (peak {gb:.1f} GB)</source>
      <translation>（峰值 {gb:.1f} GB）</translation>
    </message>
    <message>
      <source> ({n} sample images resized)</source>
      <translation>（已缩放 {n} 张样本图片）</translation>
    </message>
    <message>
      <source> Each batch of {mb:.1f} MB takes {now:.1f} ms to reach the GPU instead of {full:.1f} ms.</source>
      <translation>每个 {mb:.1f} MB 的批次到达 GPU 需要 {now:.1f} 毫秒，而不是 {full:.1f} 毫秒。</translation>
    </message>
    <message>
      <source> How: {how}</source>
      <translation> 做法：{how}</translation>
    </message>
    <message>
      <source> Newer wheels ({tags}) have no kernels for this architecture.</source>
      <translation> 更新的安装包（{tags}）没有这种架构的内核。</translation>
    </message>
    <message>
      <source> This machine has {gpus}; training will not use them.</source>
      <translation> 这台机器有 {gpus}；训练不会使用它们。</translation>
    </message>
    <message>
      <source> Your runs and settings were kept (--remove-data deletes them).</source>
      <translation> 你的训练记录和设置已保留（--remove-data 会删除它们）。</translation>
    </message>
    <message>
      <source> and {path}</source>
      <translation> 和 {path}</translation>
    </message>
    <message>
      <source> images</source>
      <translation> 张</translation>
    </message>
    <message>
      <source> in epoch {epoch}</source>
      <translation>，在第 {epoch} 轮</translation>
    </message>
    <message>
      <source> or the desktop</source>
      <translation>或桌面</translation>
    </message>
    <message>
      <source> per rank × {n}</source>
      <translation> 每个进程 × {n}</translation>
    </message>
    <message>
      <source> px</source>
      <translation> 像素</translation>
    </message>
    <message>
      <source> — not usable with this wheel</source>
      <translation> — 无法用于此安装包</translation>
    </message>
    <message>
      <source># Prepared copy of {source} (images resized to {imgsz} px). Written by YOLO Studio; edit the original instead.</source>
      <translation># {source} 的预处理副本（图片已缩放到 {imgsz} 像素）。由 YOLO Studio 生成；请改为编辑原文件。</translation>
    </message>
    <message>
      <source># Written by YOLO Studio from the folder's images and labels; edit freely.</source>
      <translation># 由 YOLO Studio 根据文件夹中的图片和标签生成；可随意编辑。</translation>
    </message>
    <message>
      <source># Written by YOLO Studio's import; edit freely.</source>
      <translation># 由 YOLO Studio 导入生成；可随意编辑。</translation>
    </message>
    <message>
      <source># in the pod's container spec: the NVIDIA device plugin then gives it a GPU</source>
      <translation># 写在 Pod 的容器规格中：NVIDIA 设备插件随后会给它分配一块 GPU</translation>
    </message>
    <message>
      <source># or: docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all …</source>
      <translation># 或：docker run --runtime=nvidia -e NVIDIA_VISIBLE_DEVICES=all …</translation>
    </message>
    <message>
      <source># or: docker run -e NVIDIA_DRIVER_CAPABILITIES=compute,utility … (Kubernetes: the same variable in the pod's env)</source>
      <translation># 或：docker run -e NVIDIA_DRIVER_CAPABILITIES=compute,utility …（Kubernetes：在 pod 的 env 中设置同一变量）</translation>
    </message>
    <message>
      <source>'download' is {kind}: yolov5 would run this script whenever a val path is missing; YOLO Studio does not (nor fetches it). Get the dataset yourself, then delete the entry.</source>
      <translation>'download' 是{kind}：只要某个 val 路径缺失，yolov5 就会运行这个脚本；YOLO Studio 不会运行（也不会下载）它。请自行获取数据集，然后删除该条目。</translation>
    </message>
    <message>
      <source>'names' lists no classes. yolov5 would build a model with no classes and stop at the first label; list the class names.</source>
      <translation>'names' 没有列出任何类别。yolov5 会建立一个没有类别的模型，并在第一个标签处停止；请列出类别名称。</translation>
    </message>
    <message>
      <source>'names' must be a list of class names or a map of id: name.</source>
      <translation>'names' 必须是类别名称列表，或 id: 名称 的映射。</translation>
    </message>
    <message>
      <source>'nc' is {value}; it must be a whole number of classes from 1 to {limit}.</source>
      <translation>'nc' 为 {value}；它必须是 1 到 {limit} 之间的整数类别数。</translation>
    </message>
    <message>
      <source>'path' is {path}, an absolute path from another machine (Colab, Kaggle or Windows). Re-root it to the folder this data.yaml is in (one-click fix) or to where the images are now.</source>
      <translation>'path' 是 {path}，一个来自其他机器（Colab、Kaggle 或 Windows）的绝对路径。请把它改到这个 data.yaml 所在的文件夹（一键修复），或改到图片现在的位置。</translation>
    </message>
    <message>
      <source>'yolostudio fetch {run} --machine {name}' brings the result back.</source>
      <translation>'yolostudio fetch {run} --machine {name}' 可取回结果。</translation>
    </message>
    <message>
      <source>'yolostudio fetch {run} --machine {name}' tries again.</source>
      <translation>'yolostudio fetch {run} --machine {name}' 可重试。</translation>
    </message>
    <message>
      <source>'{entry}' has no './' in front. yolov5 reads such a line relative to the folder training is started from ({cwd}), not relative to this list's folder; write it as './{entry}' (or absolute).</source>
      <translation>'{entry}' 前面没有 './'。yolov5 按启动训练时所在的文件夹（{cwd}）解析这种行，而不是按此列表所在的文件夹；请写成 './{entry}'（或绝对路径）。</translation>
    </message>
    <message>
      <source>'{entry}' is followed by a space or tab. yolov5 keeps it as part of the name, so the name no longer ends in an image suffix and yolov5 skips the line silently: the image is not trained. Delete the trailing space.</source>
      <translation>'{entry}' 后面有空格或制表符。yolov5 会把它当作名称的一部分，于是名称不再以图片后缀结尾，yolov5 会静默跳过这一行：该图片不会参与训练。请删除末尾的空格。</translation>
    </message>
    <message>
      <source>'{entry}' is neither a GPU index nor a GPU UUID, and CUDA shows no GPU from that entry on.</source>
      <translation>'{entry}' 既不是 GPU 序号也不是 GPU UUID，CUDA 从该项起不再显示任何 GPU。</translation>
    </message>
    <message>
      <source>'{entry}' is not a GPU (it is often set to hide every GPU), and CUDA shows no GPU from that entry on.</source>
      <translation>'{entry}' 不是 GPU（常被设置为隐藏所有 GPU），CUDA 从该项起不再显示任何 GPU。</translation>
    </message>
    <message>
      <source>'{entry}' matches no GPU's UUID here, and CUDA shows no GPU from that entry on.</source>
      <translation>'{entry}' 与本机任何 GPU 的 UUID 都不匹配，CUDA 从该项起不再显示任何 GPU。</translation>
    </message>
    <message>
      <source>'{entry}' starts with a space or tab. yolov5 keeps it, so the line is not a './' path to yolov5 and it looks for a file named with that space in the folder training starts from; delete the space.</source>
      <translation>'{entry}' 以空格或制表符开头。yolov5 会保留它，因此这一行对 yolov5 来说不是 './' 路径，它会在启动训练的文件夹中查找带有该空格的文件名；请删除该空格。</translation>
    </message>
    <message>
      <source>'{key}' is empty. yolov5 needs the folder (or list file) of the {key} images.</source>
      <translation>'{key}' 为空。yolov5 需要 {key} 图片的文件夹（或列表文件）。</translation>
    </message>
    <message>
      <source>'{key}' is missing. yolov5 stops at once with "data.yaml '{key}:' field missing".</source>
      <translation>缺少 '{key}'。yolov5 会立即以 "data.yaml '{key}:' field missing" 停止。</translation>
    </message>
    <message>
      <source>'{name}' cannot name a review queue: use letters, digits, '.', '_' or '-' (at most 64).</source>
      <translation>“{name}”不能用作审核队列名：请使用字母、数字、'.'、'_' 或 '-'（最多 64 个）。</translation>
    </message>
    <message>
      <source>'{name}' has few examples and a low AP ({ap})</source>
      <translation>'{name}' 样本少且 AP 低（{ap}）</translation>
    </message>
    <message>
      <source>'{split}' must be a path or a list of paths.</source>
      <translation>'{split}' 必须是一个路径或路径列表。</translation>
    </message>
    <message>
      <source>'{title}' (above) stops CUDA first</source>
      <translation>'{title}'（见上）首先阻止了 CUDA</translation>
    </message>
    <message>
      <source>'{token}' is not a number. yolov5 drops the image as corrupt ('could not convert string to float').</source>
      <translation>'{token}' 不是数字。yolov5 会把图片当作损坏丢弃（'could not convert string to float'）。</translation>
    </message>
    <message>
      <source>(a small val set: the number can move this much with other images)</source>
      <translation>（验证集较小：换一批图片，这个数字可能变动这么多）</translation>
    </message>
    <message>
      <source>(default: {value})</source>
      <translation>（默认：{value}）</translation>
    </message>
    <message>
      <source>(few images: the number can move this much with other images)</source>
      <translation>（图片较少：换一批图片，这个数字可能变动这么多）</translation>
    </message>
    <message>
      <source>(read back from the store)</source>
      <translation>（从存档读取）</translation>
    </message>
    <message>
      <source>* estimated: not measured here</source>
      <translation>* 估算值：未在此测量</translation>
    </message>
    <message>
      <source>+{n} image</source>
      <translation>+{n} 张图片</translation>
    </message>
    <message>
      <source>+{n} images</source>
      <translation>+{n} 张图片</translation>
    </message>
    <message>
      <source>, about {s:.0f} s left</source>
      <translation>，约剩 {s:.0f} 秒</translation>
    </message>
    <message>
      <source>, imported in {s:.1f} s</source>
      <translation>，导入用时 {s:.1f} 秒</translation>
    </message>
    <message>
      <source>, {n} tiles</source>
      <translation>，{n} 个切片</translation>
    </message>
    <message>
      <source>--cache ram needs about {need:.1f} GB for {images} images at imgsz {imgsz}; yolov5 then silently trains without a cache. Use the disk cache instead.</source>
      <translation>--cache ram 在图片尺寸 {imgsz} 下缓存 {images} 张图片约需 {need:.1f} GB；内存不够时 yolov5 会静默地不用缓存训练。请改用磁盘缓存。</translation>
    </message>
    <message>
      <source>--cache ram needs about {need:.1f} GB for {images} images, {available:.1f} GB available</source>
      <translation>--cache ram 缓存 {images} 张图片约需 {need:.1f} GB，可用 {available:.1f} GB</translation>
    </message>
    <message>
      <source>--conf {value} is not a confidence.</source>
      <translation>--conf {value} 不是有效的置信度。</translation>
    </message>
    <message>
      <source>--data needs this machine's probe; it cannot be combined with --facts.</source>
      <translation>--data 需要探测这台机器，不能与 --facts 同时使用。</translation>
    </message>
    <message>
      <source>--detach needs --machine NAME.</source>
      <translation>--detach 需要同时给出 --machine NAME。</translation>
    </message>
    <message>
      <source>--draws {value}: at least 1.</source>
      <translation>--draws {value}：至少为 1。</translation>
    </message>
    <message>
      <source>--facts describes another machine: showing its plan only (nothing is installed).</source>
      <translation>--facts 描述的是另一台机器：只显示它的安装计划（不会安装任何东西）。</translation>
    </message>
    <message>
      <source>--imgsz and --batch must be at least 1, --workers at least 0, --timeout positive.</source>
      <translation>--imgsz 和 --batch 至少为 1，--workers 至少为 0，--timeout 必须为正数。</translation>
    </message>
    <message>
      <source>--imgsz {n}</source>
      <translation>--imgsz {n}</translation>
    </message>
    <message>
      <source>--int8-max-drop {value} is not between 0 and 1.</source>
      <translation>--int8-max-drop {value} 不在 0 到 1 之间。</translation>
    </message>
    <message>
      <source>--kfold makes held-out predictions for the train split; the {split} split is judged by the run's own weights.</source>
      <translation>--kfold 为训练划分做留出预测；{split} 划分由该训练自己的权重评估。</translation>
    </message>
    <message>
      <source>--max-false-alarms {value}: a number of false alarms per 100 images, 0 or more.</source>
      <translation>--max-false-alarms {value}：每 100 张图片的误报次数，0 或更多。</translation>
    </message>
    <message>
      <source>--rename {value}: write OLD=NEW</source>
      <translation>--rename {value}：请写成 旧名=新名（OLD=NEW）</translation>
    </message>
    <message>
      <source>--repair changes this machine and talks to a person: it cannot be combined with --facts or --json.</source>
      <translation>--repair 会修改这台机器并需要与人交互，不能与 --facts 或 --json 同时使用。</translation>
    </message>
    <message>
      <source>--split {value}: give two or three shares, train first and above 0, e.g. 0.8,0.2,0</source>
      <translation>--split {value}：请给出两个或三个比例，训练在前且大于 0，例如 0.8,0.2,0</translation>
    </message>
    <message>
      <source>--target-recall {value}: a recall is between 0 and 1 (0.9 means nine objects in ten found).</source>
      <translation>--target-recall {value}：召回率在 0 到 1 之间（0.9 表示十个目标找到九个）。</translation>
    </message>
    <message>
      <source>--trust-weights and --trust-model are not sent to another machine.</source>
      <translation>--trust-weights 和 --trust-model 不会发送到另一台机器。</translation>
    </message>
    <message>
      <source>--wheels {path}: give a folder of wheels, with --offline.</source>
      <translation>--wheels {path}：请给出 wheel 文件夹，并同时使用 --offline。</translation>
    </message>
    <message>
      <source>--workers {fits}</source>
      <translation>--workers {fits}</translation>
    </message>
    <message>
      <source>--workers {fits}   # or give the container more CPUs: docker run {cpus} …</source>
      <translation>--workers {fits}   # 或给容器更多 CPU：docker run {cpus} …</translation>
    </message>
    <message>
      <source>--workers {fits}   # or raise the pod's CPU limit: resources: limits: cpu: "{cpus}" (in the container spec; the pod is then recreated)</source>
      <translation>--workers {fits}   # 或提高 Pod 的 CPU 限额：resources: limits: cpu: "{cpus}"（写在容器规格中；Pod 随后会重建）</translation>
    </message>
    <message>
      <source>--workers {fits}   # or {page_file}</source>
      <translation>--workers {fits}   # 或{page_file}</translation>
    </message>
    <message>
      <source>/dev/shm</source>
      <translation>/dev/shm</translation>
    </message>
    <message>
      <source>/dev/shm is too small for {workers} data-loader workers</source>
      <translation>/dev/shm 太小，容不下 {workers} 个数据加载进程</translation>
    </message>
    <message>
      <source>/dev/shm size</source>
      <translation>/dev/shm 大小</translation>
    </message>
    <message>
      <source>/dev/shm {shm:.2f} GB holds {n} workers' batches</source>
      <translation>/dev/shm {shm:.2f} GB 能容纳 {n} 个加载进程的批次</translation>
    </message>
    <message>
      <source>/dev/shm {size:.0f} MB; {workers} workers need {need:.0f} MB</source>
      <translation>/dev/shm {size:.0f} MB；{workers} 个加载进程需要 {need:.0f} MB</translation>
    </message>
    <message>
      <source>0 on the machine that leads (it writes the run's record and saves the weights), 1, 2 … on the others.</source>
      <translation>主机器为 0（它写入训练记录并保存权重），其他机器为 1、2 …</translation>
    </message>
    <message>
      <source>10% of boxes under {area:.2%} of the image</source>
      <translation>10% 的框小于图片的 {area:.2%}</translation>
    </message>
    <message>
      <source>; CUDA does start in PyTorch</source>
      <translation>；CUDA 在 PyTorch 中能够启动</translation>
    </message>
    <message>
      <source>; disk {free:.0f} GB free, {speed:.0f} MB/s</source>
      <translation>；磁盘空闲 {free:.0f} GB，{speed:.0f} MB/s</translation>
    </message>
    <message>
      <source>; within {budget}</source>
      <translation>；在 {budget} 之内</translation>
    </message>
    <message>
      <source>A .pt checkpoint to start from when Model is a YAML (fine-tuning): reaches a good mAP in far fewer epochs than training from scratch. A .pt from outside your runs is a pickle and needs your confirmation.</source>
      <translation>当模型是 YAML 时作为起点的 .pt 检查点（微调）：比从头训练少得多的轮数就能达到好的 mAP。训练目录以外的 .pt 是 pickle 文件，需要你确认。</translation>
    </message>
    <message>
      <source>A GPU has fallen off the bus</source>
      <translation>有一块 GPU 从总线上掉线了</translation>
    </message>
    <message>
      <source>A balance of speed and accuracy for this device.</source>
      <translation>在这个设备上兼顾速度和精度。</translation>
    </message>
    <message>
      <source>A copy resized to {imgsz} px once removes the decoding of large images that starves training.</source>
      <translation>把图片一次性缩放到 {imgsz} 像素的副本，可以省去拖慢训练的大图解码。</translation>
    </message>
    <message>
      <source>A copy resized to {imgsz} px, kept decoded in RAM: nothing is decoded after the cache is filled, and filling it is quick.</source>
      <translation>缩放到 {imgsz} 像素的副本，并以解码后的形式保存在内存中：缓存填满后不再解码，而且填充很快。</translation>
    </message>
    <message>
      <source>A data-loader worker was killed, usually for lack of RAM. Use fewer workers, or turn off the RAM cache.</source>
      <translation>一个数据加载进程被终止了，通常是因为内存不足。请减少加载进程，或关闭内存缓存。</translation>
    </message>
    <message>
      <source>A false alarm is a detection no labelled object of its class matches: nothing there, another class, a poor box or a second detection of one object.</source>
      <translation>误报是没有同类别标注目标与之匹配的检测：那里什么都没有、类别不对、框不准，或同一目标的第二个检测。</translation>
    </message>
    <message>
      <source>A file in the store that its manifest does not list.</source>
      <translation>权重库中有一个清单未列出的文件。</translation>
    </message>
    <message>
      <source>A free TCP port on machine 0, open to the other machines.</source>
      <translation>第 0 台机器上一个空闲的 TCP 端口，需对其他机器开放。</translation>
    </message>
    <message>
      <source>A label file without an image (yolov5's pairing: same name under images/ instead of labels/). yolov5 ignores it silently; was its image renamed or deleted? Move it aside (one-click fix).</source>
      <translation>一个没有对应图片的标签文件（yolov5 的配对规则：同名文件，位于 images/ 而不是 labels/ 下）。yolov5 会静默忽略它；它的图片是被改名或删除了吗？把它移到别处（一键修复）。</translation>
    </message>
    <message>
      <source>A label uses a class id that is not in the data.yaml's names. Add the class to names, or fix the label files (the Dataset page lists them).</source>
      <translation>有标签使用了 data.yaml 的 names 中没有的类别 id。请把该类别加入 names，或修正标签文件（数据集页面会列出它们）。</translation>
    </message>
    <message>
      <source>A local Ray would listen on this computer's network (Ray's servers bind every interface), and it cannot be confined to loopback here: {reason}.</source>
      <translation>本地 Ray 会在这台计算机的网络上监听（Ray 的服务绑定所有网络接口），而这里无法把它限制在本机回环接口上：{reason}。</translation>
    </message>
    <message>
      <source>A network that inspects HTTPS needs its certificate: point SSL_CERT_FILE at your organisation's CA bundle. Also check the computer's clock.</source>
      <translation>会检查 HTTPS 流量的网络需要它自己的证书：把 SSL_CERT_FILE 指向你所在机构的 CA 证书包。另外请检查电脑的时钟。</translation>
    </message>
    <message>
      <source>A polygon row needs a class and x y pairs, but this one has {n} coordinates (an odd number). yolov5 drops the image as corrupt ('cannot reshape array of size {n} into shape (2)').</source>
      <translation>多边形行需要类别加 x y 坐标对，但这一行有 {n} 个坐标（奇数）。yolov5 会把图片当作损坏丢弃（'cannot reshape array of size {n} into shape (2)'）。</translation>
    </message>
    <message>
      <source>A quick test on the CPU: 320 costs a quarter of 640.</source>
      <translation>在 CPU 上快速测试：320 的开销是 640 的四分之一。</translation>
    </message>
    <message>
      <source>A quick test: enough epochs to see the losses fall and mAP rise.</source>
      <translation>快速测试：足够看到损失下降、mAP 上升的轮数。</translation>
    </message>
    <message>
      <source>A row remapping failed on this GPU: part of its memory is faulty and can no longer be taken out of use. Training on it may crash or compute wrong results. Have the board checked by its vendor; use another GPU meanwhile.</source>
      <translation>这块 GPU 的一次行重映射失败：它的一部分显存有故障，且已无法再被隔离停用。在它上面训练可能崩溃或算出错误结果。请让厂商检修这块显卡；在此期间使用另一块 GPU。</translation>
    </message>
    <message>
      <source>A test kernel failed on GPU {index} ({name})</source>
      <translation>GPU {index}（{name}）上的测试内核失败</translation>
    </message>
    <message>
      <source>A tiny CUDA computation failed on this GPU with CUDA's 'unknown error'. {why}</source>
      <translation>一个很小的 CUDA 计算在这块 GPU 上失败，CUDA 报告 'unknown error'。{why}</translation>
    </message>
    <message>
      <source>A tiny CUDA computation failed on this GPU, so training on it would fail too.</source>
      <translation>在这块 GPU 上运行的一个微小 CUDA 计算失败了，所以在它上面训练也会失败。</translation>
    </message>
    <message>
      <source>A tiny CUDA computation failed on this GPU, so training on it would fail too; the {good} works: train on it. Reboot, then check again, to use this one.</source>
      <translation>一个很小的 CUDA 计算在这块 GPU 上失败了，因此在它上面训练也会失败；{good} 工作正常：请在它上面训练。若要使用这块 GPU，请重启后再检查一次。</translation>
    </message>
    <message>
      <source>A {n}-value row in a file of polygons. yolov5 reads every row of this file as a polygon, so this row becomes a {points}-point polygon and its box is wrong; keep one format per file.</source>
      <translation>多边形标签文件中出现了 {n} 个数值的行。yolov5 会把这个文件的每一行都当作多边形读取，所以这一行会变成 {points} 个点的多边形，框也会出错；每个文件请只用一种格式。</translation>
    </message>
    <message>
      <source>AMD GPU through ROCm: training runs on it</source>
      <translation>通过 ROCm 使用 AMD 显卡：训练会在它上面运行</translation>
    </message>
    <message>
      <source>AMP check</source>
      <translation>AMP 检查</translation>
    </message>
    <message>
      <source>Accept {fingerprint}? [y/N] </source>
      <translation>接受 {fingerprint}？[y/N] </translation>
    </message>
    <message>
      <source>Accepted {fingerprint}; added to {file}.</source>
      <translation>已接受 {fingerprint}；已添加到 {file}。</translation>
    </message>
    <message>
      <source>Adam</source>
      <translation>Adam</translation>
    </message>
    <message>
      <source>AdamW</source>
      <translation>AdamW</translation>
    </message>
    <message>
      <source>Add '{split}:' with images to the data.yaml (yolostudio dataset check shows what it finds), or evaluate another split with --split.</source>
      <translation>在 data.yaml 中加入带图片的 '{split}:'（yolostudio dataset check 会显示它找到的内容），或用 --split 评估其他划分。</translation>
    </message>
    <message>
      <source>Add --split train, or drop --kfold.</source>
      <translation>加上 --split train，或去掉 --kfold。</translation>
    </message>
    <message>
      <source>Add --yes to trust {path}.</source>
      <translation>加上 --yes 以信任 {path}。</translation>
    </message>
    <message>
      <source>Add images or augmentation; stop early with --patience {n}.</source>
      <translation>增加图片或数据增强；用 --patience {n} 提前停止。</translation>
    </message>
    <message>
      <source>Add the class to 'names' in the data.yaml (the Dataset page), or reject those boxes in the queue.</source>
      <translation>请在 data.yaml 的 'names' 中添加该类别（数据集页面），或在队列中拒绝这些框。</translation>
    </message>
    <message>
      <source>Added machine {name} ({dest}); its workspace there: {folder}. 'yolostudio machine check {name}' runs the doctor there.</source>
      <translation>已添加机器 {name}（{dest}）；它上面的工作区：{folder}。'yolostudio machine check {name}' 会在那里运行环境检查。</translation>
    </message>
    <message>
      <source>Added {n} image to {split} of {data}.</source>
      <translation>已向 {data} 的 {split} 加入 {n} 张图片。</translation>
    </message>
    <message>
      <source>Added {n} images to {split} of {data}.</source>
      <translation>已向 {data} 的 {split} 加入 {n} 张图片。</translation>
    </message>
    <message>
      <source>All {epochs} epochs had finished when its worker ended: Resume completes it, marking it completed with the weights it has (the final validation of best.pt does not run again).</source>
      <translation>训练进程结束时全部 {epochs} 轮已训练完：“继续训练”会用现有权重将其标记为已完成（不会再次对 best.pt 做最终验证）。</translation>
    </message>
    <message>
      <source>An idle GPU may narrow its link to save power: check again during training.</source>
      <translation>空闲的 GPU 可能为省电而缩窄链路：请在训练期间再检查一次。</translation>
    </message>
    <message>
      <source>An option has an unexpected value; check the training settings.</source>
      <translation>某个选项的值不符合预期；请检查训练设置。</translation>
    </message>
    <message>
      <source>Another rank of the run was lost (a process ended, or a node became unreachable); the whole run stopped. Seen here: {reason}</source>
      <translation>训练中的另一个进程丢失了（进程结束，或某个节点无法连接）；整个训练已停止。此处看到：{reason}</translation>
    </message>
    <message>
      <source>Another set of images could move the number this much; compare runs by more than it.</source>
      <translation>换一批图片，这个数字就可能变动这么多；比较各次训练时差距要大于它。</translation>
    </message>
    <message>
      <source>Approval</source>
      <translation>审批</translation>
    </message>
    <message>
      <source>Architecture</source>
      <translation>结构</translation>
    </message>
    <message>
      <source>Ask for held-out predictions instead: --split train --kfold {k} trains {k} short models, each predicting the images it did not learn (the time it takes is said before it starts).</source>
      <translation>请改用留出预测：--split train --kfold {k} 会训练 {k} 个短训练模型，每个预测它没学过的图片（开始前会先说明所需时间）。</translation>
    </message>
    <message>
      <source>Asked run {name} to stop; it saves a checkpoint after the current batch.</source>
      <translation>已请求训练 {name} 停止；它会在当前批次结束后保存检查点。</translation>
    </message>
    <message>
      <source>Asked run {run} on {name} to stop; it saves a checkpoint after the current batch (Ctrl+C again detaches).</source>
      <translation>已请求 {name} 上的训练 {run} 停止；它会在当前批次之后保存检查点（再按 Ctrl+C 分离）。</translation>
    </message>
    <message>
      <source>Asking the GPU driver (NVML)…</source>
      <translation>正在询问 GPU 驱动（NVML）…</translation>
    </message>
    <message>
      <source>Asking {index} for {tag}</source>
      <translation>正在向 {index} 询问 {tag}</translation>
    </message>
    <message>
      <source>Augment on the training device</source>
      <translation>在训练设备上做数据增强</translation>
    </message>
    <message>
      <source>Augmentation on the training device (--gpu-augment on): the loader's workers only decode and letterbox; mosaic, perspective, HSV, flips and mixup run on each batch.</source>
      <translation>在训练设备上做数据增强（--gpu-augment on）：加载器的工作进程只解码和填充缩放（letterbox）；马赛克、透视、HSV、翻转和 mixup 在每个批次上运行。</translation>
    </message>
    <message>
      <source>Auto (the wizard decides by measurement)</source>
      <translation>自动（由向导根据测量决定）</translation>
    </message>
    <message>
      <source>Automatic batch size (-1) does not work with several processes (yolov5 sizes it for one GPU only).</source>
      <translation>自动批大小（-1）不能用于多进程训练（yolov5 只按一块 GPU 估算）。</translation>
    </message>
    <message>
      <source>Batch</source>
      <translation>批大小</translation>
    </message>
    <message>
      <source>Batch size must be at least 1, or -1 for automatic (got {value}).</source>
      <translation>批大小至少为 1，或用 -1 表示自动（当前为 {value}）。</translation>
    </message>
    <message>
      <source>Batch size must be at least 1.</source>
      <translation>批大小至少为 1。</translation>
    </message>
    <message>
      <source>Batch {batch} cannot be split evenly between {world} processes.</source>
      <translation>批大小 {batch} 无法平均分给 {world} 个进程。</translation>
    </message>
    <message>
      <source>Best mAP@0.5 {m50:.3f}, mAP@0.5:0.95 {m95:.3f}</source>
      <translation>最佳 mAP@0.5 {m50:.3f}，mAP@0.5:0.95 {m95:.3f}</translation>
    </message>
    <message>
      <source>Best weights: {path}</source>
      <translation>最佳权重：{path}</translation>
    </message>
    <message>
      <source>Best: {run} (fitness {fitness:.4f}). Train with it: yolostudio train --config {file}</source>
      <translation>最佳：{run}（适应度 {fitness:.4f}）。用它训练：yolostudio train --config {file}</translation>
    </message>
    <message>
      <source>Both a checkpoint model and initial weights were given.</source>
      <translation>同时指定了检查点模型和初始权重。</translation>
    </message>
    <message>
      <source>Bottleneck monitor [{code}]: {title}</source>
      <translation>瓶颈监测 [{code}]：{title}</translation>
    </message>
    <message>
      <source>Build it again on this machine.</source>
      <translation>请在这台机器上重新构建。</translation>
    </message>
    <message>
      <source>Byte {offset} is not UTF-8 text. yolov5 drops the image as corrupt ("'utf-8' codec can't decode byte"); save the file as plain UTF-8 (or ASCII) text.</source>
      <translation>第 {offset} 个字节不是 UTF-8 文本。yolov5 会把图片当作损坏丢弃（"'utf-8' codec can't decode byte"）；请把文件保存为纯 UTF-8（或 ASCII）文本。</translation>
    </message>
    <message>
      <source>Byte {offset} is not UTF-8 text. yolov5 silently drops such bytes when it reads the file, so a class name or path may not be what you see; save the file as UTF-8.</source>
      <translation>第 {offset} 个字节不是 UTF-8 文本。yolov5 读文件时会静默丢弃这类字节，所以类别名或路径可能与你看到的不同；请把文件保存为 UTF-8。</translation>
    </message>
    <message>
      <source>CPU</source>
      <translation>CPU</translation>
    </message>
    <message>
      <source>CPU (no CUDA device)</source>
      <translation>CPU（无 CUDA 设备）</translation>
    </message>
    <message>
      <source>CPU build, as asked (--cpu).{note}</source>
      <translation>CPU 版本，按要求（--cpu）。{note}</translation>
    </message>
    <message>
      <source>CPU slots each trial gets (on a machine without GPUs: trials side by side = cores / this)</source>
      <translation>每个试验分到的 CPU 槽位（在没有 GPU 的机器上：同时运行的试验数 = 核心数 / 此值）</translation>
    </message>
    <message>
      <source>CPUs for the data loader</source>
      <translation>数据加载可用的 CPU</translation>
    </message>
    <message>
      <source>CUDA answers 'unknown error': reload the NVIDIA driver's nvidia_uvm module</source>
      <translation>CUDA 报告 'unknown error'：请重新加载 NVIDIA 驱动的 nvidia_uvm 模块</translation>
    </message>
    <message>
      <source>CUDA does not start in PyTorch, so cuDNN cannot be used</source>
      <translation>CUDA 在 PyTorch 中无法启动，所以不能使用 cuDNN</translation>
    </message>
    <message>
      <source>CUDA reaches the GPU but NVML (the driver's management library) is missing: the container was started with the 'compute' driver capability only, so the NVIDIA runtime did not mount the 'utility' libraries. Without them the app cannot read GPU utilisation, throttling or other processes. Restart the container with both capabilities.</source>
      <translation>CUDA 能访问 GPU，但缺少 NVML（驱动的管理库）：容器启动时只带了 'compute' 驱动能力，所以 NVIDIA 运行时没有挂载 'utility' 库。没有它们，应用无法读取 GPU 利用率、降频或其他进程。请带上两种能力重新启动容器。</translation>
    </message>
    <message>
      <source>CUDA shows only the entries before it ({shown}); the ones after it ({hidden}) are hidden.</source>
      <translation>CUDA 只显示它之前的项（{shown}）；之后的项（{hidden}）被隐藏。</translation>
    </message>
    <message>
      <source>CUDA works (test kernel)</source>
      <translation>CUDA 可用（测试内核）</translation>
    </message>
    <message>
      <source>Cache</source>
      <translation>缓存</translation>
    </message>
    <message>
      <source>Cancelled. yolostudio weights get {name} resumes where it stopped.</source>
      <translation>已取消。yolostudio weights get {name} 会从中断处继续。</translation>
    </message>
    <message>
      <source>Cancelled; files checked so far are cached.</source>
      <translation>已取消；已检查的文件结果已缓存。</translation>
    </message>
    <message>
      <source>Cannot hard-link {src} into {out} ({error}): they are on different file systems or links are not allowed. Use --copy.</source>
      <translation>无法把 {src} 硬链接到 {out}（{error}）：它们在不同的文件系统上，或不允许链接。请使用 --copy。</translation>
    </message>
    <message>
      <source>Cannot read the config {path}: {reason}</source>
      <translation>无法读取配置 {path}：{reason}</translation>
    </message>
    <message>
      <source>Cannot read the file: {reason}</source>
      <translation>无法读取文件：{reason}</translation>
    </message>
    <message>
      <source>Cannot read the file: {reason}. Check that it exists and that you may read it.</source>
      <translation>无法读取文件：{reason}。请确认文件存在且你有读取权限。</translation>
    </message>
    <message>
      <source>Cannot read the list: {reason}</source>
      <translation>无法读取列表：{reason}</translation>
    </message>
    <message>
      <source>Cannot read the search space {path}: {reason}</source>
      <translation>无法读取搜索空间 {path}：{reason}</translation>
    </message>
    <message>
      <source>Cannot write {path}: {reason}</source>
      <translation>无法写入 {path}：{reason}</translation>
    </message>
    <message>
      <source>Check it on the Dataset page.</source>
      <translation>请在数据集页面检查它。</translation>
    </message>
    <message>
      <source>Check that YOLO Studio's Python environment is complete ('yolostudio doctor' or the Environment page checks it), then try again.</source>
      <translation>请检查 YOLO Studio 的 Python 环境是否完整（'yolostudio doctor' 或环境页面会检查），然后重试。</translation>
    </message>
    <message>
      <source>Check that the cluster runs the same Ray version ({version}) and that its head is up.</source>
      <translation>请检查集群运行的是同一 Ray 版本（{version}），并且其头节点已启动。</translation>
    </message>
    <message>
      <source>Check the address, and that the camera or server is reachable from this machine.</source>
      <translation>请检查地址，以及本机能否访问该摄像头或服务器。</translation>
    </message>
    <message>
      <source>Check the camera is connected; try index 0, 1, …</source>
      <translation>请检查摄像头已连接；试试编号 0、1、…</translation>
    </message>
    <message>
      <source>Check the dataset's val folder (--data DATA.yaml).</source>
      <translation>请检查数据集的 val 文件夹（--data DATA.yaml）。</translation>
    </message>
    <message>
      <source>Check the dataset: the data.yaml paths must point at existing image folders or lists, with labels in a matching labels/ folder.</source>
      <translation>请检查数据集：data.yaml 中的路径必须指向存在的图片文件夹或列表，标签放在对应的 labels/ 文件夹中。</translation>
    </message>
    <message>
      <source>Check the disk space and permissions of {folder}.</source>
      <translation>请检查 {folder} 的磁盘空间和权限。</translation>
    </message>
    <message>
      <source>Check the hyperparameters (a NaN, or a very large lr0 or label_smoothing) and the labels, then train again.</source>
      <translation>检查超参数（是否有 NaN，或过大的 lr0、label_smoothing）和标签，然后重新训练。</translation>
    </message>
    <message>
      <source>Check the network connection and try again; the download resumes where it stopped.</source>
      <translation>请检查网络连接后重试；下载会从中断处继续。</translation>
    </message>
    <message>
      <source>Check the path, or open the dataset page to create a data.yaml.</source>
      <translation>请检查路径，或打开数据集页面创建 data.yaml。</translation>
    </message>
    <message>
      <source>Check the path. YOLO Studio works offline: the official pretrained checkpoints come by name (yolov5s.pt …) from its weights store, and yolostudio weights get yolov5s fetches one when you ask.</source>
      <translation>请检查路径。YOLO Studio 离线工作：官方预训练检查点按名称（yolov5s.pt …）从它的权重库获取，需要时用 yolostudio weights get yolov5s 下载。</translation>
    </message>
    <message>
      <source>Check the power supply: its rating for this card, every power connector seated, no adapters or daisy-chained cables; then cooling. 'nvidia-smi -q -d PERFORMANCE' shows which slowdown is active.</source>
      <translation>检查电源：额定功率是否适合这张显卡，每个供电接口是否插好，不要用转接头或串联线缆；然后检查散热。'nvidia-smi -q -d PERFORMANCE' 会显示当前的降频原因。</translation>
    </message>
    <message>
      <source>Check the weights file. A finished run cannot be resumed: start a new run from its best.pt instead.</source>
      <translation>请检查权重文件。已完成的训练不能继续：请改用它的 best.pt 开始新的训练。</translation>
    </message>
    <message>
      <source>Check the weights path.</source>
      <translation>请检查权重路径。</translation>
    </message>
    <message>
      <source>Checked by</source>
      <translation>检查人</translation>
    </message>
    <message>
      <source>Checking the dataset and building the model…</source>
      <translation>正在检查数据集并构建模型…</translation>
    </message>
    <message>
      <source>Checking the installed app</source>
      <translation>正在检查已安装的应用</translation>
    </message>
    <message>
      <source>Checking {detail} (loading it as a YOLOv5 checkpoint)</source>
      <translation>正在检查 {detail}（作为 YOLOv5 检查点加载）</translation>
    </message>
    <message>
      <source>Checking {done}/{total} files{when}</source>
      <translation>正在检查 {done}/{total} 个文件{when}</translation>
    </message>
    <message>
      <source>Checking…</source>
      <translation>正在检查…</translation>
    </message>
    <message>
      <source>Checkpoints, plots and a disk cache are written there; a full disk ends training.</source>
      <translation>检查点、图表和磁盘缓存都写在那里；磁盘写满会终止训练。</translation>
    </message>
    <message>
      <source>Choose a data.yaml, or use the demo dataset.</source>
      <translation>请选择一个 data.yaml，或使用演示数据集。</translation>
    </message>
    <message>
      <source>Choose at least one format to export.</source>
      <translation>请至少选择一种导出格式。</translation>
    </message>
    <message>
      <source>Choose from: {names}</source>
      <translation>可选：{names}</translation>
    </message>
    <message>
      <source>Choose one it has with --split ({splits}).</source>
      <translation>用 --split 选择它已有的划分（{splits}）。</translation>
    </message>
    <message>
      <source>Class</source>
      <translation>类别</translation>
    </message>
    <message>
      <source>Class id {cls} but the dataset has {nc} classes (0–{top}). {consequence}</source>
      <translation>类别 id 为 {cls}，但数据集只有 {nc} 个类别（0–{top}）。{consequence}</translation>
    </message>
    <message>
      <source>Class id {cls} is negative. yolov5 drops the image as corrupt ('{quote}').</source>
      <translation>类别 id {cls} 为负数。yolov5 会把图片当作损坏丢弃（'{quote}'）。</translation>
    </message>
    <message>
      <source>Class id {cls} is not a whole number. yolov5 accepts the row and trains it as class {int} (its loss truncates ids); was a column shifted?</source>
      <translation>类别 id {cls} 不是整数。yolov5 会接受这一行并按类别 {int} 训练（损失函数会截断 id）；是不是某一列错位了？</translation>
    </message>
    <message>
      <source>Class ids in 'names' must run 0, 1, 2 … without gaps; found {ids}. yolov5 sets nc to the number of names ({n}), so a label with id {top} aborts training.</source>
      <translation>'names' 中的类别 id 必须按 0、1、2 … 连续，不能有空缺；发现 {ids}。yolov5 把 nc 设为名称的数量（{n}），所以 id 为 {top} 的标签会中止训练。</translation>
    </message>
    <message>
      <source>Class {id} '{name}' has no instances in {split}. The model cannot learn it; yolov5 never reports this. Label some images, or delete the class (ids after it shift).</source>
      <translation>类别 {id} '{name}' 在 {split} 中没有实例。模型无法学会它；yolov5 从不报告这一点。请标注一些图片，或删除这个类别（其后的 id 会顺移）。</translation>
    </message>
    <message>
      <source>Class {id} is not a plain text value; edit it in the YAML view.</source>
      <translation>类别 {id} 不是普通的文本值；请在 YAML 视图中编辑。</translation>
    </message>
    <message>
      <source>Classes</source>
      <translation>类别</translation>
    </message>
    <message>
      <source>Classes {first} and {second} are both called '{name}'; their predictions cannot be told apart.</source>
      <translation>类别 {first} 和 {second} 都叫 '{name}'；它们的预测结果无法区分。</translation>
    </message>
    <message>
      <source>Close other programs, and {page_file}.</source>
      <translation>请关闭其他程序，并{page_file}。</translation>
    </message>
    <message>
      <source>Close other programs, or train with a smaller batch and --workers 0.</source>
      <translation>关闭其他程序，或用更小的批大小和 --workers 0 训练。</translation>
    </message>
    <message>
      <source>Collecting the wheel set here (pip download) …</source>
      <translation>正在本机收集 wheel 包集（pip download）…</translation>
    </message>
    <message>
      <source>Completed</source>
      <translation>已完成</translation>
    </message>
    <message>
      <source>Completed in {time}.</source>
      <translation>已完成，用时 {time}。</translation>
    </message>
    <message>
      <source>Connect to the Internet and try again. If this network needs a proxy, set HTTPS_PROXY (and NO_PROXY) in the environment YOLO Studio starts from; or download the file elsewhere and use Import.</source>
      <translation>请连接互联网后重试。如果这个网络需要代理，请在启动 YOLO Studio 的环境中设置 HTTPS_PROXY（和 NO_PROXY）；或在别处下载文件后用“导入”。</translation>
    </message>
    <message>
      <source>Coordinates are fractions of the image size, between 0 and 1.</source>
      <translation>坐标是相对于图片尺寸的比例，在 0 到 1 之间。</translation>
    </message>
    <message>
      <source>Copy the dataset to a local SSD, or train with --cache ram (or --cache disk).</source>
      <translation>把数据集复制到本地 SSD，或使用 --cache ram（或 --cache disk）训练。</translation>
    </message>
    <message>
      <source>Copy the file again, or use the run's other checkpoint (best.pt / last.pt).</source>
      <translation>请重新复制文件，或使用该训练的另一个检查点（best.pt / last.pt）。</translation>
    </message>
    <message>
      <source>Copy the same dataset (same data.yaml, images and labels) and install the same yolov5 and torch on every node, then start the run again on all of them.</source>
      <translation>请在每个节点上放置相同的数据集（相同的 data.yaml、图片和标注），安装相同版本的 yolov5 和 torch，然后在所有节点上重新开始训练。</translation>
    </message>
    <message>
      <source>Copying {detail}</source>
      <translation>正在复制 {detail}</translation>
    </message>
    <message>
      <source>Correct the data.yaml, then check again.</source>
      <translation>改正 data.yaml，然后重新检查。</translation>
    </message>
    <message>
      <source>Correct the file, or leave the option off for the defaults.</source>
      <translation>请修正该文件，或不加此选项以使用默认值。</translation>
    </message>
    <message>
      <source>Correct the model YAML, or start from yolov5n.yaml … yolov5x.yaml.</source>
      <translation>请修正模型 YAML，或从 yolov5n.yaml … yolov5x.yaml 开始。</translation>
    </message>
    <message>
      <source>Cosine learning rate</source>
      <translation>余弦学习率</translation>
    </message>
    <message>
      <source>Could not copy {path} into the weights store: {reason}</source>
      <translation>无法把 {path} 复制到权重库：{reason}</translation>
    </message>
    <message>
      <source>Could not remove {key} without changing other values; edit it in the YAML view.</source>
      <translation>无法在不改变其他值的情况下删除 {key}；请在 YAML 视图中编辑。</translation>
    </message>
    <message>
      <source>Could not write into the dataset: {reason}</source>
      <translation>无法写入数据集：{reason}</translation>
    </message>
    <message>
      <source>Could not write the class names without changing other values.</source>
      <translation>无法在不改变其他值的情况下写入类别名称。</translation>
    </message>
    <message>
      <source>Could not write {path}: {reason}</source>
      <translation>无法写入 {path}：{reason}</translation>
    </message>
    <message>
      <source>Could not write {value!r} at {path} without changing other values.</source>
      <translation>无法在不改变其他值的情况下把 {value!r} 写到 {path}。</translation>
    </message>
    <message>
      <source>Create the app's environment with a Python PyTorch {release} has wheels for ({range}): python{high} -m venv .venv, then run installer/launch.sh again.</source>
      <translation>用 PyTorch {release} 提供安装包的 Python（{range}）创建应用的环境：python{high} -m venv .venv，然后再次运行 installer/launch.sh。</translation>
    </message>
    <message>
      <source>Create the folder, or point '{split}' at the folder of its images.</source>
      <translation>请创建该文件夹，或让“{split}”指向其图片所在的文件夹。</translation>
    </message>
    <message>
      <source>Cut from {goal_n} to fit your time budget of {budget}.</source>
      <translation>从 {goal_n} 轮减少，以符合你的时间预算 {budget}。</translation>
    </message>
    <message>
      <source>Data arrives in time (wait {share}) but the GPU computed only {util:.0f}% of the time: each step is too small to keep it busy. Use a larger batch (and mixed precision).</source>
      <translation>数据供应及时（等待 {share}），但 GPU 只有 {util:.0f}% 的时间在计算：每一步的工作量太小，无法让它忙起来。请使用更大的批大小（并开启混合精度）。</translation>
    </message>
    <message>
      <source>Data-loader workers hand batches to training through shared memory; when it is full the loader dies with 'bus error' or 'No space left on device'. Docker gives containers only 64 MB unless told otherwise. Until it is fixed, --workers {fits} fits.</source>
      <translation>数据加载进程通过共享内存把批次交给训练；共享内存满了，加载器就会以 'bus error' 或 'No space left on device' 崩溃。Docker 默认只给容器 64 MB。在修复之前，--workers {fits} 可以放得下。</translation>
    </message>
    <message>
      <source>Data-loader workers ran out of shared memory. In a container start it with --ipc=host or a larger --shm-size; or use fewer workers.</source>
      <translation>数据加载进程的共享内存不足。在容器中请用 --ipc=host 或更大的 --shm-size 启动；或减少加载进程。</translation>
    </message>
    <message>
      <source>Dataset</source>
      <translation>数据集</translation>
    </message>
    <message>
      <source>Dataset and model ready</source>
      <translation>数据集和模型已就绪</translation>
    </message>
    <message>
      <source>Dataset check cancelled; nothing was started.</source>
      <translation>数据集检查已取消；没有开始训练。</translation>
    </message>
    <message>
      <source>Dataset check: OK ({w} warnings).</source>
      <translation>数据集检查：通过（{w} 条警告）。</translation>
    </message>
    <message>
      <source>Dataset check: {e} errors — yolostudio dataset check {path} lists them.</source>
      <translation>数据集检查：{e} 个错误 — yolostudio dataset check {path} 会列出它们。</translation>
    </message>
    <message>
      <source>Dataset file</source>
      <translation>数据集文件</translation>
    </message>
    <message>
      <source>Dataset file not found: {path}</source>
      <translation>找不到数据集文件：{path}</translation>
    </message>
    <message>
      <source>Dataset on {name}: {folder} ({sent} of {files} files sent).</source>
      <translation>{name} 上的数据集：{folder}（发送了 {files} 个文件中的 {sent} 个）。</translation>
    </message>
    <message>
      <source>Dataset {path}</source>
      <translation>数据集 {path}</translation>
    </message>
    <message>
      <source>Dataset: {message}</source>
      <translation>数据集：{message}</translation>
    </message>
    <message>
      <source>Date</source>
      <translation>日期</translation>
    </message>
    <message>
      <source>Delete line {line} of {name} ({row}); backup kept as {name}.bak</source>
      <translation>删除 {name} 的第 {line} 行（{row}）；备份保存为 {name}.bak</translation>
    </message>
    <message>
      <source>Delete your workspace and settings too? This removes every run and model in:
{folders}
Type 'delete' to confirm: </source>
      <translation>也删除你的工作区和设置吗？这会删除以下位置中的所有训练记录和模型：
{folders}
输入 'delete' 确认：</translation>
    </message>
    <message>
      <source>Deployment report of run {run} written to {path}
  at confidence {conf}: precision {p}, recall {r}, {fa} false alarms per 100 images</source>
      <translation>训练 {run} 的部署报告已写入 {path}
  置信度 {conf} 下：精确率 {p}，召回率 {r}，每 100 张图片误报 {fa} 次</translation>
    </message>
    <message>
      <source>Deployment report: run {run}</source>
      <translation>部署报告：训练 {run}</translation>
    </message>
    <message>
      <source>Detached; the job goes on on {name}.</source>
      <translation>已分离；任务在 {name} 上继续运行。</translation>
    </message>
    <message>
      <source>Detached; the run keeps going on {name}. 'yolostudio attach {run} --machine {name}' follows it again.</source>
      <translation>已分离；训练在 {name} 上继续。'yolostudio attach {run} --machine {name}' 可重新跟踪它。</translation>
    </message>
    <message>
      <source>Detached; the run keeps going. 'yolostudio stop {name}' stops it.</source>
      <translation>已分离；训练继续进行。用 'yolostudio stop {name}' 停止它。</translation>
    </message>
    <message>
      <source>Detection agreement after NMS: {pct} ({matched} of {boxes} boxes, IoU ≥ 0.9, same class, conf ≥ {conf}) on {images} images</source>
      <translation>NMS 后的检测一致率：{pct}（{boxes} 个框中 {matched} 个一致，IoU ≥ 0.9，类别相同，置信度 ≥ {conf}），共 {images} 张图片</translation>
    </message>
    <message>
      <source>Device</source>
      <translation>设备</translation>
    </message>
    <message>
      <source>Device {value!r} is not understood.</source>
      <translation>无法理解设备 {value!r}。</translation>
    </message>
    <message>
      <source>Disk (decoded .npy files beside the images)</source>
      <translation>磁盘（在图片旁保存解码后的 .npy 文件）</translation>
    </message>
    <message>
      <source>Disk speed and space</source>
      <translation>磁盘速度和空间</translation>
    </message>
    <message>
      <source>Does not fit in RAM with margin (yolov5 would then silently train without it).</source>
      <translation>留出余量后内存放不下（yolov5 会因此静默地不用缓存训练）。</translation>
    </message>
    <message>
      <source>Does not fit in RAM with margin.</source>
      <translation>留出余量后内存放不下。</translation>
    </message>
    <message>
      <source>Does not fit in RAM; the .npy files (their decoded size) go beside your images.</source>
      <translation>内存放不下；.npy 文件（解码后的大小）会写在你的图片旁边。</translation>
    </message>
    <message>
      <source>Don't draw yolov5's plots (labels, batches, curves): saves seconds per run, and the live view has no validation pictures.</source>
      <translation>不绘制 yolov5 的图表（标签、批次、曲线）：每次训练节省几秒钟，实时视图中也就没有验证图片。</translation>
    </message>
    <message>
      <source>Done: {n} image or frame.</source>
      <translation>完成：{n} 张图片或帧。</translation>
    </message>
    <message>
      <source>Done: {n} images or frames.</source>
      <translation>完成：{n} 张图片或帧。</translation>
    </message>
    <message>
      <source>Download cancelled.</source>
      <translation>下载已取消。</translation>
    </message>
    <message>
      <source>Downloading the wheel set here failed</source>
      <translation>在本机下载 wheel 包集失败</translation>
    </message>
    <message>
      <source>Downloading {detail}</source>
      <translation>正在下载 {detail}</translation>
    </message>
    <message>
      <source>Downloading {file} ({size})</source>
      <translation>正在下载 {file}（{size}）</translation>
    </message>
    <message>
      <source>Downloading {file}: {done:.0f} of {total:.0f} MB</source>
      <translation>正在下载 {file}：{done:.0f} / {total:.0f} MB</translation>
    </message>
    <message>
      <source>Draw images with rare classes more often: helps an imbalanced dataset; epochs then repeat some images and skip others.</source>
      <translation>更频繁地抽取含稀有类别的图片：有助于类别不平衡的数据集；每一轮会重复一些图片并跳过另一些。</translation>
    </message>
    <message>
      <source>Driver vs PyTorch CUDA</source>
      <translation>驱动与 PyTorch CUDA 匹配</translation>
    </message>
    <message>
      <source>Driver {driver} is older than {floor}, the minimum for {tag}: CUDA will not start until the driver is updated.</source>
      <translation>驱动 {driver} 比 {tag} 所需的最低版本 {floor} 旧：在更新驱动之前 CUDA 无法启动。</translation>
    </message>
    <message>
      <source>Drop</source>
      <translation>下降</translation>
    </message>
    <message>
      <source>Dynamic shapes cannot be combined with FP16; turn off FP16 to export dynamic shapes.</source>
      <translation>动态尺寸不能与 FP16 同时使用；关闭 FP16 才能导出动态尺寸。</translation>
    </message>
    <message>
      <source>ERROR</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Each GPU gets {per_gpu} images per step: BatchNorm statistics from so few images are noisy.</source>
      <translation>每块 GPU 每步只有 {per_gpu} 张图片：这么少的图片算出的 BatchNorm 统计量噪声很大。</translation>
    </message>
    <message>
      <source>Each has a one-click fix on the Dataset page (Fix…, previewed and undoable).</source>
      <translation>每条都可在“数据集”页一键修复（修复…，先预览，可撤销）。</translation>
    </message>
    <message>
      <source>Earlier: the run {status}{where} after {elapsed} s, then was resumed.</source>
      <translation>之前：训练在 {elapsed} 秒后{status}{where}，随后被继续。</translation>
    </message>
    <message>
      <source>Efficiency: {ips:.0f} img/s on the CPU, data wait {wait}</source>
      <translation>效率：CPU 上 {ips:.0f} 张/秒，数据等待 {wait}</translation>
    </message>
    <message>
      <source>Efficiency: {ips:.0f} img/s, data wait {wait}, GPU busy {gpu}</source>
      <translation>效率：{ips:.0f} 张/秒，数据等待 {wait}，GPU 繁忙 {gpu}</translation>
    </message>
    <message>
      <source>Environment probe</source>
      <translation>环境探测</translation>
    </message>
    <message>
      <source>Epoch {epoch}/{epochs}  box {box} obj {obj} cls {cls} | P {p} R {r} mAP@0.5 {m50} mAP@0.5:0.95 {m95} | {secs:.1f} s, {ips} img/s, data wait {wait}{best}</source>
      <translation>轮次 {epoch}/{epochs}  box {box} obj {obj} cls {cls} | P {p} R {r} mAP@0.5 {m50} mAP@0.5:0.95 {m95} | {secs:.1f} 秒，{ips} 张/秒，数据等待 {wait}{best}</translation>
    </message>
    <message>
      <source>Epoch {epoch}/{epochs} {bar} {batch}/{batches}  ETA {eta}  {losses}  {ips} img/s  data wait {wait}</source>
      <translation>轮次 {epoch}/{epochs} {bar} {batch}/{batches}  剩余 {eta}  {losses}  {ips} 张/秒  数据等待 {wait}</translation>
    </message>
    <message>
      <source>Epochs</source>
      <translation>轮数</translation>
    </message>
    <message>
      <source>Errors at confidence ≥ {conf}: {missed} missed, {fp} false positives, {wc} wrong class, {pb} poor boxes, {dup} duplicates. The likeliest label mistakes first:</source>
      <translation>置信度 ≥ {conf} 的错误：{missed} 个漏检，{fp} 个误检，{wc} 个类别错误，{pb} 个框不准，{dup} 个重复。最可能的标注错误排在最前：</translation>
    </message>
    <message>
      <source>Evaluate a run that trained at least one epoch.</source>
      <translation>请选择至少训练了一个轮次的训练进行评估。</translation>
    </message>
    <message>
      <source>Evaluate it first: {command}</source>
      <translation>请先评估：{command}</translation>
    </message>
    <message>
      <source>Evaluate the weights as they are: {command}</source>
      <translation>请评估现在的权重：{command}</translation>
    </message>
    <message>
      <source>Evaluated</source>
      <translation>评估时间</translation>
    </message>
    <message>
      <source>Evaluating {weights} on the {split} split ({n} image) with yolov5's validation…</source>
      <translation>正在用 yolov5 的验证在 {split} 划分（{n} 张图片）上评估 {weights}…</translation>
    </message>
    <message>
      <source>Evaluating {weights} on the {split} split ({n} images) with yolov5's validation…</source>
      <translation>正在用 yolov5 的验证在 {split} 划分（{n} 张图片）上评估 {weights}…</translation>
    </message>
    <message>
      <source>Evaluation of {weights} on the {split} split: {n} image, {instances} objects</source>
      <translation>{weights} 在 {split} 划分上的评估：{n} 张图片，{instances} 个目标</translation>
    </message>
    <message>
      <source>Evaluation of {weights} on the {split} split: {n} images, {instances} objects</source>
      <translation>{weights} 在 {split} 划分上的评估：{n} 张图片，{instances} 个目标</translation>
    </message>
    <message>
      <source>Evaluation on the val split</source>
      <translation>在验证集上的评估</translation>
    </message>
    <message>
      <source>Evaluations are listed with a run: give a run of this workspace.</source>
      <translation>评估随训练一起列出：请给出本工作区的一次训练。</translation>
    </message>
    <message>
      <source>Even without data-loader workers, training needs about {main:.1f} GB and {available:.1f} GB is free. {risk}</source>
      <translation>即使没有数据加载进程，训练也需要约 {main:.1f} GB，而可用的只有 {available:.1f} GB。{risk}</translation>
    </message>
    <message>
      <source>Even {n} epoch takes {total} here.</source>
      <translation>即使 {n} 轮在这里也需要 {total}。</translation>
    </message>
    <message>
      <source>Even {n} epochs take {total} here.</source>
      <translation>即使 {n} 轮在这里也需要 {total}。</translation>
    </message>
    <message>
      <source>Every training step takes longer.</source>
      <translation>每个训练步骤都会变慢。</translation>
    </message>
    <message>
      <source>Everything saved so far is kept. The last lines of the job's log (worker.log in a run's folder) may say why; a training run can be resumed from its last checkpoint.</source>
      <translation>目前已保存的内容都会保留。任务日志（训练文件夹中的 worker.log）的最后几行可能说明了原因；训练可以从最后的检查点继续。</translation>
    </message>
    <message>
      <source>Everything saved so far is kept; a training run can be resumed from its last checkpoint.</source>
      <translation>目前已保存的内容都会保留；训练可以从最后的检查点继续。</translation>
    </message>
    <message>
      <source>Expect a smaller batch to fit, or pick a free GPU.</source>
      <translation>能放下的批大小会变小；或者换一块空闲的 GPU。</translation>
    </message>
    <message>
      <source>Export FP32 ONNX or TorchScript on this machine.</source>
      <translation>请在这台机器上导出 FP32 的 ONNX 或 TorchScript。</translation>
    </message>
    <message>
      <source>Export a complete checkpoint.</source>
      <translation>请导出一个完整的检查点。</translation>
    </message>
    <message>
      <source>Export it with the tool that trained it (for ultralytics 8: 'yolo export').</source>
      <translation>请用训练它的工具导出（ultralytics 8：'yolo export'）。</translation>
    </message>
    <message>
      <source>Export it with the tool that trained it, or fine-tune a model here from it.</source>
      <translation>请用训练它的工具导出，或在这里以它为起点微调一个模型。</translation>
    </message>
    <message>
      <source>Extra large P6: the most accurate YOLOv5; the slowest and the most GPU memory.</source>
      <translation>超大型 P6：最准的 YOLOv5；最慢，显存占用也最多。</translation>
    </message>
    <message>
      <source>Extra large: the most accurate at 640 px and the slowest; about 12x the compute of s.</source>
      <translation>超大型：640 像素下最准也最慢；计算量约为 s 的 12 倍。</translation>
    </message>
    <message>
      <source>FP16 (needs a GPU; not with --dynamic)</source>
      <translation>FP16（需要 GPU；不能与 --dynamic 同用）</translation>
    </message>
    <message>
      <source>FP16 and TensorRT exports need an NVIDIA GPU that PyTorch can use, and none is available.</source>
      <translation>FP16 和 TensorRT 导出需要一块 PyTorch 能使用的 NVIDIA GPU，但当前没有。</translation>
    </message>
    <message>
      <source>FP16 and TensorRT need a GPU, but the CPU was chosen.</source>
      <translation>FP16 和 TensorRT 需要 GPU，但选择的是 CPU。</translation>
    </message>
    <message>
      <source>FP16 differs from FP32</source>
      <translation>FP16 与 FP32 不一致</translation>
    </message>
    <message>
      <source>FP16 export cannot be combined with dynamic shapes; turn off dynamic shapes to export FP16.</source>
      <translation>FP16 导出不能与动态尺寸同时使用；关闭动态尺寸才能导出 FP16。</translation>
    </message>
    <message>
      <source>FP16 export needs an NVIDIA GPU (half precision does not run on the CPU).</source>
      <translation>FP16 导出需要 NVIDIA GPU（半精度无法在 CPU 上运行）。</translation>
    </message>
    <message>
      <source>FP16 is not safe here: these GPUs pass yolov5's AMP check, then the loss turns NaN later in the run, so the run trains in FP32 (--no-amp; more memory, slower).</source>
      <translation>这里 FP16 不安全：这些 GPU 能通过 yolov5 的 AMP 检查，但损失会在训练后期变成 NaN，因此本次以 FP32 训练（--no-amp；占用更多显存，速度更慢）。</translation>
    </message>
    <message>
      <source>FP16 is not safe here: yolov5's AMP check fails and it trains in FP32 (more memory, slower).</source>
      <translation>这里使用 FP16 不安全：yolov5 的 AMP 检查会失败，转而以 FP32 训练（更占显存、更慢）。</translation>
    </message>
    <message>
      <source>FP16 matches FP32</source>
      <translation>FP16 与 FP32 一致</translation>
    </message>
    <message>
      <source>Facts written to {path}</source>
      <translation>检测信息已写入 {path}</translation>
    </message>
    <message>
      <source>Failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>Failed after {time}.</source>
      <translation>在 {time} 后失败。</translation>
    </message>
    <message>
      <source>False alarms</source>
      <translation>误报</translation>
    </message>
    <message>
      <source>False alarms per 100 images</source>
      <translation>每 100 张图片的误报</translation>
    </message>
    <message>
      <source>False alarms per 100 images (95 % interval)</source>
      <translation>每 100 张图片的误报（95 % 区间）</translation>
    </message>
    <message>
      <source>Fetch cancelled.</source>
      <translation>取回已取消。</translation>
    </message>
    <message>
      <source>Fetching {run} from {name} failed: {reason}</source>
      <translation>从 {name} 取回 {run} 失败：{reason}</translation>
    </message>
    <message>
      <source>Fetching {run} from {name}: {size} …</source>
      <translation>正在从 {name} 取回 {run}：{size} …</translation>
    </message>
    <message>
      <source>File not found: {path}</source>
      <translation>找不到文件：{path}</translation>
    </message>
    <message>
      <source>File: {path} ({size})</source>
      <translation>文件：{path}（{size}）</translation>
    </message>
    <message>
      <source>Fine-tuning from pretrained weights converges in fewer epochs.</source>
      <translation>从预训练权重微调，收敛所需的轮数更少。</translation>
    </message>
    <message>
      <source>Fine-tuning from {file} (COCO-pretrained, on this machine): a few hundred images reach a useful mAP in tens of epochs, where training from scratch needs hundreds.</source>
      <translation>从 {file} 微调（COCO 预训练，已在本机）：几百张图片在几十轮内就能达到可用的 mAP，而从头训练需要几百轮。</translation>
    </message>
    <message>
      <source>Finishing: validating the best weights…</source>
      <translation>收尾中：正在验证最佳权重…</translation>
    </message>
    <message>
      <source>Fits in RAM with yolov5's 10% margin, and the loader is faster with it.</source>
      <translation>留出 yolov5 的 10% 余量后内存放得下，而且加载器用它会更快。</translation>
    </message>
    <message>
      <source>Fits in RAM with yolov5's 10% margin.</source>
      <translation>留出 yolov5 的 10% 余量后内存放得下。</translation>
    </message>
    <message>
      <source>Fix it first (yolostudio dataset check {path}).</source>
      <translation>请先修复它（yolostudio dataset check {path}）。</translation>
    </message>
    <message>
      <source>Fix the YAML errors first; the file cannot be edited safely while it does not parse.</source>
      <translation>请先修复 YAML 错误；文件无法解析时不能安全地编辑。</translation>
    </message>
    <message>
      <source>Fix the dataset (yolostudio dataset check lists every such place), then train again.</source>
      <translation>请先修复数据集（yolostudio dataset check 会列出每一处），然后重新训练。</translation>
    </message>
    <message>
      <source>Fix the dataset (yolostudio dataset check {path}), or train on the originals: yolostudio train {path} …</source>
      <translation>修复数据集（yolostudio dataset check {path}），或用原图训练：yolostudio train {path} …</translation>
    </message>
    <message>
      <source>Fix them (yolostudio dataset check {data} lists them all; the Dataset page has one-click fixes), or pass --no-check to train anyway.</source>
      <translation>请修复它们（yolostudio dataset check {data} 会全部列出；数据集页面有一键修复），或加上 --no-check 强制训练。</translation>
    </message>
    <message>
      <source>Fixed by you.</source>
      <translation>由你指定。</translation>
    </message>
    <message>
      <source>Fold {fold}'s training saved no weights in {path}.</source>
      <translation>第 {fold} 折的训练没有在 {path} 中保存权重。</translation>
    </message>
    <message>
      <source>Follow it with 'yolostudio attach {name}' (or open it on the Runs page), or stop it with 'yolostudio stop {name}' and resume it afterwards.</source>
      <translation>用 'yolostudio attach {name}' 跟踪它（或在训练记录页面打开），或用 'yolostudio stop {name}' 停止它之后再继续训练。</translation>
    </message>
    <message>
      <source>For {share} of the samples the GPU reported: {reasons}. To fix it: {fixes} ('nvidia-smi -q -d PERFORMANCE' shows which slowdown is active).</source>
      <translation>在 {share} 的采样中 GPU 报告：{reasons}。解决办法：{fixes}（'nvidia-smi -q -d PERFORMANCE' 可显示当前的降频原因）。</translation>
    </message>
    <message>
      <source>Format</source>
      <translation>格式</translation>
    </message>
    <message>
      <source>Found</source>
      <translation>找到</translation>
    </message>
    <message>
      <source>Found ({fmt}) in {source}: {images} images, {boxes} annotations.</source>
      <translation>在 {source} 中找到（{fmt}）：{images} 张图片，{boxes} 个标注。</translation>
    </message>
    <message>
      <source>Free some disk space in the workspace, then get it again: the download resumes where it stopped.</source>
      <translation>请清理工作区所在磁盘的空间，然后重新获取：下载会从中断处继续。</translation>
    </message>
    <message>
      <source>Free some space (old runs, caches, other exports) and export again.</source>
      <translation>请释放一些磁盘空间（旧的训练记录、缓存、其他导出文件），然后重新导出。</translation>
    </message>
    <message>
      <source>Free space, or move the workspace: yolostudio --workspace DIR …</source>
      <translation>清理空间，或移动工作区：yolostudio --workspace DIR …</translation>
    </message>
    <message>
      <source>Free the GPU (other processes), or choose a smaller model or image size.</source>
      <translation>请释放 GPU（关闭其他进程），或选择更小的模型或图片尺寸。</translation>
    </message>
    <message>
      <source>Freeze layers</source>
      <translation>冻结层</translation>
    </message>
    <message>
      <source>From scratch, yolov5 needs many epochs; Patience stops early at a plateau.</source>
      <translation>从头训练时 yolov5 需要很多轮；“耐心值”会在平台期提前停止。</translation>
    </message>
    <message>
      <source>GPU</source>
      <translation>GPU</translation>
    </message>
    <message>
      <source>GPU architecture in the wheel</source>
      <translation>安装包支持的 GPU 架构</translation>
    </message>
    <message>
      <source>GPU busy</source>
      <translation>GPU 繁忙</translation>
    </message>
    <message>
      <source>GPU busy, throttling, PCIe</source>
      <translation>GPU 占用、降频、PCIe</translation>
    </message>
    <message>
      <source>GPU compute mode and memory health</source>
      <translation>GPU 计算模式与显存健康</translation>
    </message>
    <message>
      <source>GPU driver (NVML)</source>
      <translation>GPU 驱动（NVML）</translation>
    </message>
    <message>
      <source>GPU kind (NVIDIA, AMD ROCm, Jetson)</source>
      <translation>GPU 类型（NVIDIA、AMD ROCm、Jetson）</translation>
    </message>
    <message>
      <source>GPU memory is {mem} used: a larger batch gives each kernel more work</source>
      <translation>显存已用 {mem}：更大的批大小能让每个内核有更多工作</translation>
    </message>
    <message>
      <source>GPU monitoring is unavailable (no NVML library)</source>
      <translation>无法监控 GPU（缺少 NVML 库）</translation>
    </message>
    <message>
      <source>GPU monitoring is unavailable inside this container</source>
      <translation>此容器内无法监控 GPU</translation>
    </message>
    <message>
      <source>GPU monitoring unavailable (NVML): {kind} ('{error}')</source>
      <translation>无法监控 GPU（NVML）：{kind}（'{error}'）</translation>
    </message>
    <message>
      <source>GPU {gpus} is listed more than once in Device ({value}).</source>
      <translation>设备（{value}）中 GPU {gpus} 被列出了不止一次。</translation>
    </message>
    <message>
      <source>GPU {gpu} had uncorrectable memory errors</source>
      <translation>GPU {gpu} 出现过不可纠正的显存错误</translation>
    </message>
    <message>
      <source>GPU {gpu} has faulty memory waiting for a reset</source>
      <translation>GPU {gpu} 有等待重置后才能隔离的故障显存</translation>
    </message>
    <message>
      <source>GPU {gpu} hits its power cap while hardly busy</source>
      <translation>GPU {gpu} 几乎不忙却碰到了功耗上限</translation>
    </message>
    <message>
      <source>GPU {gpu} is busy with work this system cannot see</source>
      <translation>GPU {gpu} 正忙于本系统看不到的工作</translation>
    </message>
    <message>
      <source>GPU {gpu} is busy, and its process list is unavailable</source>
      <translation>GPU {gpu} 正忙，且无法获取其进程列表</translation>
    </message>
    <message>
      <source>GPU {gpu} is busy: other processes use {used} of its {total} GB.</source>
      <translation>GPU {gpu} 正忙：其他进程占用了它 {total} GB 中的 {used} GB。</translation>
    </message>
    <message>
      <source>GPU {gpu} is held back by a hardware slowdown</source>
      <translation>GPU {gpu} 受到硬件降频的限制</translation>
    </message>
    <message>
      <source>GPU {gpu} is in exclusive mode and another process holds it</source>
      <translation>GPU {gpu} 处于独占模式，且已被另一个进程占用</translation>
    </message>
    <message>
      <source>GPU {gpu} is in use by {count} other process(es): {pids}</source>
      <translation>GPU {gpu} 正被 {count} 个其他进程使用：{pids}</translation>
    </message>
    <message>
      <source>GPU {gpu} is set to 'Compute Prohibited'</source>
      <translation>GPU {gpu} 被设为 'Compute Prohibited'（禁止计算）</translation>
    </message>
    <message>
      <source>GPU {gpu} is shared: other processes use {used} of its {total} GB, which this run cannot have.</source>
      <translation>GPU {gpu} 与其他程序共用：其他进程占用了它 {total} GB 中的 {used} GB，这次训练无法使用这部分。</translation>
    </message>
    <message>
      <source>GPU {gpu} runs its PCIe link at gen {gen} of {gen_max} under load</source>
      <translation>GPU {gpu} 在负载下以第 {gen} 代（最高第 {gen_max} 代）运行 PCIe 链路</translation>
    </message>
    <message>
      <source>GPU {gpu} runs its PCIe link at x{width} of x{max}</source>
      <translation>GPU {gpu} 的 PCIe 链路以 x{width} 运行（最高 x{max}）</translation>
    </message>
    <message>
      <source>GPU {gpu} slows down from heat and a hardware slowdown</source>
      <translation>GPU {gpu} 因过热和硬件降频而变慢</translation>
    </message>
    <message>
      <source>GPU {gpu} slows down to stay cool</source>
      <translation>GPU {gpu} 为了降温而降频</translation>
    </message>
    <message>
      <source>GPU {gpu}'s memory has faults it could not remap</source>
      <translation>GPU {gpu} 的显存有无法重映射的故障</translation>
    </message>
    <message>
      <source>GPU {gpu}'s power limit is lowered to {limit:.0f} W (default {default:.0f} W)</source>
      <translation>GPU {gpu} 的功耗上限被降低到 {limit:.0f} W（默认 {default:.0f} W）</translation>
    </message>
    <message>
      <source>GPU {index}: compute mode {mode}</source>
      <translation>GPU {index}：计算模式 {mode}</translation>
    </message>
    <message>
      <source>GPU {index}: {figures}</source>
      <translation>GPU {index}：{figures}</translation>
    </message>
    <message>
      <source>GPU {index}: {what}</source>
      <translation>GPU {index}：{what}</translation>
    </message>
    <message>
      <source>GPU {missing} is not present: this machine has {count} GPU(s), numbered 0 to {last}.</source>
      <translation>GPU {missing} 不存在：这台机器有 {count} 块 GPU，编号 0 到 {last}。</translation>
    </message>
    <message>
      <source>GPU {value} was requested but {found}.</source>
      <translation>请求使用 GPU {value}，但{found}。</translation>
    </message>
    <message>
      <source>GPUs</source>
      <translation>GPU</translation>
    </message>
    <message>
      <source>GPUs (NVML)</source>
      <translation>GPU（NVML）</translation>
    </message>
    <message>
      <source>GPUs PyTorch sees</source>
      <translation>PyTorch 看到的 GPU</translation>
    </message>
    <message>
      <source>GPUs each trial gets (default: 1 on a machine with GPUs, else 0)</source>
      <translation>每个试验分到的 GPU 数（默认：有 GPU 的机器为 1，否则为 0）</translation>
    </message>
    <message>
      <source>GPUs hidden by the environment</source>
      <translation>被环境隐藏的 GPU</translation>
    </message>
    <message>
      <source>GPUs to use (0 or 0,1; cpu); default: every GPU</source>
      <translation>要使用的 GPU（0 或 0,1；cpu）；默认：所有 GPU</translation>
    </message>
    <message>
      <source>GTX 16xx and Quadro T-series GPUs (TU116/TU117) pass yolov5's AMP check, then produce NaN losses or zero mAP later in FP16 training. Train in full precision (FP32): it needs more GPU memory per image, so a smaller batch may be needed.</source>
      <translation>GTX 16xx 和 Quadro T 系列 GPU（TU116/TU117）能通过 yolov5 的 AMP 检查，但在 FP16 训练后期会出现 NaN 损失或 mAP 为零。请以全精度（FP32）训练：每张图片需要更多显存，可能需要更小的批大小。</translation>
    </message>
    <message>
      <source>Get it again to resume from where it stopped.</source>
      <translation>重新获取即可从中断处继续。</translation>
    </message>
    <message>
      <source>Get it again; if it happens again the file on the server has changed.</source>
      <translation>请重新获取；如果再次发生，说明服务器上的文件已经改变。</translation>
    </message>
    <message>
      <source>Get it with: {command} (or Weights… on the Train page); or give the path of a copy you have.</source>
      <translation>获取方式：{command}（或训练页面上的“权重…”）；也可以指定你已有副本的路径。</translation>
    </message>
    <message>
      <source>Get one with: yolostudio weights get yolov5s   (downloads from {base})</source>
      <translation>获取方式：yolostudio weights get yolov5s   （从 {base} 下载）</translation>
    </message>
    <message>
      <source>Give --from or --config, not both.</source>
      <translation>请只给出 --from 或 --config 之一。</translation>
    </message>
    <message>
      <source>Give --images the folder that holds the new images.</source>
      <translation>用 --images 指定存放新图片的文件夹。</translation>
    </message>
    <message>
      <source>Give --model the run's best.pt or one of its exports.</source>
      <translation>请用 --model 指定该训练的 best.pt 或它的某个导出模型。</translation>
    </message>
    <message>
      <source>Give --rdzv-endpoint HOST:PORT (or --master-addr and --master-port) of machine 0, the same on every machine.</source>
      <translation>请给出第 0 台机器的 --rdzv-endpoint 主机:端口（或 --master-addr 和 --master-port），每台机器都使用相同的值。</translation>
    </message>
    <message>
      <source>Give a dataset with validation images (--data DATA.yaml).</source>
      <translation>请指定带验证图片的数据集（--data DATA.yaml）。</translation>
    </message>
    <message>
      <source>Give a plain file name ending in .pt (--name).</source>
      <translation>请指定以 .pt 结尾的普通文件名（--name）。</translation>
    </message>
    <message>
      <source>Give a value above 0 and at most 1 (0.25 is yolov5's default).</source>
      <translation>请给出大于 0 且不超过 1 的值（yolov5 的默认值是 0.25）。</translation>
    </message>
    <message>
      <source>Give an image, a folder, a glob such as 'images/*.jpg', a video, a camera index (0) or an rtsp:// or http:// stream.</source>
      <translation>请指定一张图片、一个文件夹、一个通配符（如 'images/*.jpg'）、一个视频、一个摄像头编号（0）或一个 rtsp:// 或 http:// 视频流。</translation>
    </message>
    <message>
      <source>Give another --name for a new queue.</source>
      <translation>用另一个 --name 新建一个队列。</translation>
    </message>
    <message>
      <source>Give another --out, or leave it out for a new one.</source>
      <translation>请指定另一个 --out，或省略它以新建一个。</translation>
    </message>
    <message>
      <source>Give either --target-recall or --max-false-alarms, not both.</source>
      <translation>--target-recall 和 --max-false-alarms 只能给出一个，不能同时给出。</translation>
    </message>
    <message>
      <source>Give either a .pt model, or a model YAML plus initial weights.</source>
      <translation>请指定一个 .pt 模型，或者模型 YAML 加初始权重。</translation>
    </message>
    <message>
      <source>Give the dataset with --data DATA.yaml.</source>
      <translation>请用 --data DATA.yaml 指定数据集。</translation>
    </message>
    <message>
      <source>Give the dataset's YAML with --data.</source>
      <translation>请用 --data 指定数据集的 YAML。</translation>
    </message>
    <message>
      <source>Give the leading machine's address and a free port, e.g. 10.0.0.1:29400.</source>
      <translation>请给出主机器的地址和一个空闲端口，例如 10.0.0.1:29400。</translation>
    </message>
    <message>
      <source>HIP (ROCm)</source>
      <translation>HIP（ROCm）</translation>
    </message>
    <message>
      <source>HOST:PORT where the machines meet (PyTorch's c10d rendezvous, hosted by the machine at HOST, usually rank 0). The port must be open between the machines. Or give the leader's address and port below.</source>
      <translation>各机器汇合的 主机:端口（PyTorch 的 c10d 汇合，由 HOST 所在的机器承担，通常是编号 0）。机器之间必须开放该端口。也可以在下面填写主机器的地址和端口。</translation>
    </message>
    <message>
      <source>Have the GPU serviced; meanwhile train on another GPU or the CPU.</source>
      <translation>请送修这块 GPU；在此期间改用另一块 GPU 或 CPU 训练。</translation>
    </message>
    <message>
      <source>Held-out (k-fold) evaluation of run {run} on the train split: {images} images, {instances} objects</source>
      <translation>训练 {run} 在训练划分上的留出（k 折）评估：{images} 张图片，{instances} 个目标</translation>
    </message>
    <message>
      <source>Held-out (k-fold) predictions on the train split: {k} fold models, each trained {epochs} epochs on the other folds, predicted the {images} images they did not learn — every training image once.</source>
      <translation>训练划分上的留出（k 折）预测：{k} 个折模型各在其他折上训练 {epochs} 个轮次，预测了它们没学过的 {images} 张图片——每张训练图片恰好一次。</translation>
    </message>
    <message>
      <source>Held-out predictions for the {n} training images of run {run}: {k} trainings of {epochs} epochs, {estimate}.</source>
      <translation>为训练 {run} 的 {n} 张训练图片做留出预测：{k} 次各 {epochs} 个轮次的训练，{estimate}。</translation>
    </message>
    <message>
      <source>Held-out predictions need at least 2 folds, not {k}.</source>
      <translation>留出预测至少需要 2 折，而不是 {k}。</translation>
    </message>
    <message>
      <source>Held-out predictions train like a run: give a run of this workspace (its settings, start weights and dataset), not a weights file or --data.</source>
      <translation>留出预测沿用某次训练的方式来训练：请给出本工作区的一次训练（它的设置、起始权重和数据集），而不是权重文件或 --data。</translation>
    </message>
    <message>
      <source>Held-out predictions train like the run; evaluate a run made by this app.</source>
      <translation>留出预测沿用该训练的方式来训练；请评估由本应用创建的训练。</translation>
    </message>
    <message>
      <source>How many machines train this run together (each runs the same command with its own node rank). Every machine needs the same dataset, yolov5 and torch.</source>
      <translation>共同训练这个任务的机器数量（每台运行同样的命令，但使用自己的节点编号）。每台机器都需要相同的数据集、yolov5 和 torch。</translation>
    </message>
    <message>
      <source>Hyperparameter file not found: {name}</source>
      <translation>找不到超参数文件：{name}</translation>
    </message>
    <message>
      <source>Hyperparameter search needs Ray Tune, an optional extra: {command} (about {size} MB installed).</source>
      <translation>超参数搜索需要 Ray Tune，这是一个可选组件：{command}（安装后约 {size} MB）。</translation>
    </message>
    <message>
      <source>Hyperparameters</source>
      <translation>超参数</translation>
    </message>
    <message>
      <source>INFO</source>
      <translation>提示</translation>
    </message>
    <message>
      <source>INT8 TensorRT engine, ONNX or OpenVINO model, calibrated on --data training images; ONNX and OpenVINO: FP32 and INT8 mAP on val compared</source>
      <translation>INT8 TensorRT 引擎、ONNX 或 OpenVINO 模型，用 --data 的训练图片校准；ONNX 和 OpenVINO：在 val 上比较 FP32 与 INT8 的 mAP</translation>
    </message>
    <message>
      <source>INT8 applies to TensorRT engines, ONNX and OpenVINO; choose one of them.</source>
      <translation>INT8 只适用于 TensorRT 引擎、ONNX 和 OpenVINO；请选择其中之一。</translation>
    </message>
    <message>
      <source>INT8 calibration needs images, and none were found in the dataset.</source>
      <translation>INT8 校准需要图片，但数据集中没有找到。</translation>
    </message>
    <message>
      <source>INT8 calibration needs images: give the dataset with --data DATA.yaml (a run's own dataset is used when the weights come from a run).</source>
      <translation>INT8 校准需要图片：用 --data DATA.yaml 指定数据集（权重来自训练时会使用该训练的数据集）。</translation>
    </message>
    <message>
      <source>INT8 cost</source>
      <translation>INT8 的代价</translation>
    </message>
    <message>
      <source>INT8 costs {drop:+.3f} mAP@0.5 ({fp32:.3f} → {int8:.3f}; mAP@0.5:0.95 {fp32_all:.3f} → {int8_all:.3f}) for p50 {t32:.1f} → {t8:.1f} ms: {verdict} (limit {limit}, --int8-max-drop).</source>
      <translation>INT8 的代价：mAP@0.5 变化 {drop:+.3f}（{fp32:.3f} → {int8:.3f}；mAP@0.5:0.95 {fp32_all:.3f} → {int8_all:.3f}），p50 {t32:.1f} → {t8:.1f} ms：{verdict}（上限 {limit}，--int8-max-drop）。</translation>
    </message>
    <message>
      <source>INT8 file: {path} ({size})</source>
      <translation>INT8 文件：{path}（{size}）</translation>
    </message>
    <message>
      <source>INT8 is a TensorRT, ONNX or OpenVINO option: {reason}</source>
      <translation>INT8 是 TensorRT、ONNX 或 OpenVINO 的选项：{reason}</translation>
    </message>
    <message>
      <source>INT8 is verified only when its mAP@0.5 falls by at most this much (default: {v})</source>
      <translation>仅当 INT8 的 mAP@0.5 下降不超过此值时才视为已验证（默认：{v}）</translation>
    </message>
    <message>
      <source>Identical content to the training image {twin}, so validation scores are inflated. yolov5 never reports this; remove it from val (one-click fix).</source>
      <translation>内容与训练图片 {twin} 完全相同，验证分数因此虚高。yolov5 从不报告这一点；把它从 val 中删除（一键修复）。</translation>
    </message>
    <message>
      <source>Identical content to {other} under another name; it counts twice in {split}. yolov5 never reports duplicates.</source>
      <translation>内容与另一个名字的 {other} 完全相同；它在 {split} 中被计算了两次。yolov5 从不报告重复。</translation>
    </message>
    <message>
      <source>If the server was reinstalled, remove the old key (ssh-keygen -R HOST) and add the machine again; otherwise someone may be in between.</source>
      <translation>如果服务器重装过，请删除旧密钥（ssh-keygen -R HOST）并重新添加这台机器；否则可能有人在中间拦截。</translation>
    </message>
    <message>
      <source>If this machine has an NVIDIA GPU, install its driver until 'nvidia-smi' lists it, then re-check.</source>
      <translation>如果这台机器有 NVIDIA GPU，请安装驱动，直到 'nvidia-smi' 能列出它，然后重新检查。</translation>
    </message>
    <message>
      <source>If this network needs a proxy, set HTTPS_PROXY (and NO_PROXY) in the environment YOLO Studio starts from; or download the file elsewhere and use Import.</source>
      <translation>如果这个网络需要代理，请在启动 YOLO Studio 的环境中设置 HTTPS_PROXY（和 NO_PROXY）；或在别处下载文件后用“导入”。</translation>
    </message>
    <message>
      <source>If you trust {value}, give it on the command line: {flag} {value}.</source>
      <translation>如果你信任 {value}，请在命令行上给出它：{flag} {value}。</translation>
    </message>
    <message>
      <source>Image '{id}' of queue '{name}' is {state}: it cannot be reviewed.</source>
      <translation>队列“{name}”中的图片“{id}”状态为 {state}：无法审核。</translation>
    </message>
    <message>
      <source>Image size</source>
      <translation>图片尺寸</translation>
    </message>
    <message>
      <source>Image size (trained / evaluated)</source>
      <translation>图片尺寸（训练 / 评估）</translation>
    </message>
    <message>
      <source>Image size {imgsz} is not a multiple of the model's stride {stride}.</source>
      <translation>图片尺寸 {imgsz} 不是模型步长 {stride} 的倍数。</translation>
    </message>
    <message>
      <source>Image size {imgsz} must be a multiple of 32 (the model's largest stride) and at least 32.</source>
      <translation>图片尺寸 {imgsz} 必须是 32（模型的最大步长）的倍数且至少为 32。</translation>
    </message>
    <message>
      <source>Image size {value} is not a multiple of 32; using {rounded}.</source>
      <translation>图片尺寸 {value} 不是 32 的倍数；将使用 {rounded}。</translation>
    </message>
    <message>
      <source>Image weights</source>
      <translation>图片权重</translation>
    </message>
    <message>
      <source>Images are resized to this square size (a multiple of 32). Larger finds smaller objects, but time and GPU memory grow with the square of the size: 1280 costs about 4x 640.</source>
      <translation>图片会被缩放到这个正方形尺寸（32 的倍数）。更大能发现更小的目标，但时间和显存随尺寸的平方增长：1280 约为 640 的 4 倍。</translation>
    </message>
    <message>
      <source>Images per training step. A larger batch keeps the GPU busier and trains faster until GPU memory runs out; 'auto' (-1) lets yolov5 pick the largest that fits on one GPU.</source>
      <translation>每个训练步骤的图片数。更大的批大小能让 GPU 更忙、训练更快，直到显存用尽；'auto'（-1）让 yolov5 选择单块 GPU 能容纳的最大值。</translation>
    </message>
    <message>
      <source>Images: {images}; videos: {videos}.</source>
      <translation>图片：{images}；视频：{videos}。</translation>
    </message>
    <message>
      <source>Imported ({fmt}) {source} → {out}: {images} images, {boxes} boxes, {nc} classes.</source>
      <translation>已导入（{fmt}）{source} → {out}：{images} 张图片，{boxes} 个框，{nc} 个类别。</translation>
    </message>
    <message>
      <source>Imported: {classes} classes, {params:.1f} M parameters.</source>
      <translation>已导入：{classes} 个类别，{params:.1f} M 参数。</translation>
    </message>
    <message>
      <source>Importing PyTorch…</source>
      <translation>正在导入 PyTorch…</translation>
    </message>
    <message>
      <source>Improve airflow: clean the dust filters and fans, give the card room, raise the fan curve; watch it with 'nvidia-smi -q -d TEMPERATURE,PERFORMANCE'.</source>
      <translation>改善散热：清洁防尘网和风扇，给显卡留出空间，提高风扇曲线；用 'nvidia-smi -q -d TEMPERATURE,PERFORMANCE' 观察。</translation>
    </message>
    <message>
      <source>In WSL, install the NVIDIA driver on Windows (not inside WSL); NVML lives in /usr/lib/wsl/lib.</source>
      <translation>在 WSL 中，请在 Windows 上安装 NVIDIA 驱动（不要在 WSL 内安装）；NVML 位于 /usr/lib/wsl/lib。</translation>
    </message>
    <message>
      <source>In exclusive-process mode only one process at a time may use the GPU; process {pids} holds it, so training cannot start on it until that process ends.</source>
      <translation>在独占进程模式下，同一时间只有一个进程能使用这块 GPU；进程 {pids} 正占用它，因此在该进程结束前，训练无法在它上面启动。</translation>
    </message>
    <message>
      <source>In this compute mode no program may create a CUDA context on the GPU, so PyTorch cannot train on it (CUDA: 'all CUDA-capable devices are busy or unavailable'). An administrator set it; the default mode lets every program use the GPU.</source>
      <translation>在这种计算模式下，任何程序都不能在这块 GPU 上创建 CUDA 上下文，所以 PyTorch 无法在它上面训练（CUDA：'all CUDA-capable devices are busy or unavailable'）。这是管理员设置的；默认模式允许所有程序使用这块 GPU。</translation>
    </message>
    <message>
      <source>Initial weights</source>
      <translation>初始权重</translation>
    </message>
    <message>
      <source>Install NVIDIA driver {driver} or newer from https://www.nvidia.com/Download/index.aspx</source>
      <translation>从 https://www.nvidia.com/Download/index.aspx 安装 {driver} 或更新版本的 NVIDIA 驱动</translation>
    </message>
    <message>
      <source>Install Python {high} from python.org (PyTorch {release} has wheels for Python {range}), then run installer\windows\install.bat again with it: set PYTHON=C:\path\to\python.exe</source>
      <translation>从 python.org 安装 Python {high}（PyTorch {release} 提供 Python {range} 的安装包），然后用它再次运行 installer\windows\install.bat：set PYTHON=C:\path\to\python.exe</translation>
    </message>
    <message>
      <source>Install TensorRT 10 for FP16 engines.</source>
      <translation>要生成 FP16 引擎请安装 TensorRT 10。</translation>
    </message>
    <message>
      <source>Install TensorRT 10 for calibrated INT8 engines.</source>
      <translation>要生成校准过的 INT8 引擎请安装 TensorRT 10。</translation>
    </message>
    <message>
      <source>Install TensorRT 10 for this CUDA (the Export page shows the command).</source>
      <translation>为这个 CUDA 安装 TensorRT 10（导出页面会显示安装命令）。</translation>
    </message>
    <message>
      <source>Install YOLO Studio for this user.</source>
      <translation>为当前用户安装 YOLO Studio。</translation>
    </message>
    <message>
      <source>Install YOLO Studio on {name} now? [y/N] </source>
      <translation>现在在 {name} 上安装 YOLO Studio 吗？[y/N] </translation>
    </message>
    <message>
      <source>Install it into the app's environment now? [y/N] </source>
      <translation>现在安装到应用的 Python 环境中吗？[y/N] </translation>
    </message>
    <message>
      <source>Install it with: {command}</source>
      <translation>安装命令：{command}</translation>
    </message>
    <message>
      <source>Install the NVIDIA driver's utilities package (it provides libnvidia-ml and nvidia-smi).</source>
      <translation>安装 NVIDIA 驱动的工具包（它提供 libnvidia-ml 和 nvidia-smi）。</translation>
    </message>
    <message>
      <source>Install the PyTorch build NVIDIA publishes for this Jetson's JetPack (Jetson Linux {release}): see {url} (or use NVIDIA's l4t-pytorch container). The wheels of PyPI and https://download.pytorch.org are not built for JetPack, and a Jetson needs no separate NVIDIA driver.</source>
      <translation>安装 NVIDIA 为这台 Jetson 的 JetPack（Jetson Linux {release}）发布的 PyTorch 版本：见 {url}（或使用 NVIDIA 的 l4t-pytorch 容器）。PyPI 和 https://download.pytorch.org 的安装包不是为 JetPack 构建的，而且 Jetson 不需要另装 NVIDIA 驱动。</translation>
    </message>
    <message>
      <source>Install the latest Microsoft Visual C++ Redistributable (x64) from {url}, restart the app; if the error stays: {reinstall}</source>
      <translation>从 {url} 安装最新的 Microsoft Visual C++ Redistributable（x64），然后重启应用；若错误仍在： {reinstall}</translation>
    </message>
    <message>
      <source>Install the system package that provides {library} (Debian/Ubuntu: apt-file search {library}), then restart the app.</source>
      <translation>安装提供 {library} 的系统软件包（Debian/Ubuntu：apt-file search {library}），然后重启应用。</translation>
    </message>
    <message>
      <source>Install the tune extra: pip install 'yolo-studio[tune]'</source>
      <translation>请安装 tune 可选组件：pip install 'yolo-studio[tune]'</translation>
    </message>
    <message>
      <source>Installation cancelled.</source>
      <translation>安装已取消。</translation>
    </message>
    <message>
      <source>Installation interrupted; run 'yolostudio machine install {name}' again to finish it.</source>
      <translation>安装被中断；再次运行 'yolostudio machine install {name}' 即可完成。</translation>
    </message>
    <message>
      <source>Installed</source>
      <translation>已安装</translation>
    </message>
    <message>
      <source>Installing {packages}</source>
      <translation>正在安装 {packages}</translation>
    </message>
    <message>
      <source>Intervals: 95 % of {draws} bootstrap resamples of the {n} val images (seed {seed}); a detection counts as found at IoU 0.5 with its class, as yolov5 counts it.</source>
      <translation>区间：对 {n} 张验证图片做 {draws} 次自助重采样的 95 % 区间（随机种子 {seed}）；与 yolov5 的计法相同，检测框在 IoU 0.5 且类别相同时算作找到。</translation>
    </message>
    <message>
      <source>It is set but empty, and an empty list shows CUDA no GPU.</source>
      <translation>它已设置但为空，空列表使 CUDA 看不到任何 GPU。</translation>
    </message>
    <message>
      <source>It trains on the prepared copy: {path}</source>
      <translation>训练使用预处理副本：{path}</translation>
    </message>
    <message>
      <source>Its files are not trusted until they are got or imported again.</source>
      <translation>在重新下载或导入之前，其文件不受信任。</translation>
    </message>
    <message>
      <source>Its image {image} exists but is in no split of this data.yaml, so yolov5 neither trains on it nor reads this label. Add the image to a split if it should be used.</source>
      <translation>它的图片 {image} 存在，但不在此 data.yaml 的任何划分中，因此 yolov5 既不会用它训练，也不会读取此标签。如需使用，请把该图片加入某个划分。</translation>
    </message>
    <message>
      <source>Jetson</source>
      <translation>Jetson</translation>
    </message>
    <message>
      <source>Jetson Linux {release}</source>
      <translation>Jetson Linux {release}</translation>
    </message>
    <message>
      <source>Jetson: training runs on its integrated GPU</source>
      <translation>Jetson：训练会在它的集成 GPU 上运行</translation>
    </message>
    <message>
      <source>Keep a checkpoint every N epochs besides last.pt and best.pt (each costs about three times the model's size on disk); -1 keeps only those two.</source>
      <translation>除 last.pt 和 best.pt 外每 N 轮再保存一个检查点（每个约占模型大小三倍的磁盘空间）；-1 只保留这两个。</translation>
    </message>
    <message>
      <source>Keep anchors</source>
      <translation>保留锚框</translation>
    </message>
    <message>
      <source>Keep decoded images so decoding JPEGs leaves every epoch after the first: 'ram' is fastest but needs RAM for the whole dataset (yolov5 checks it fits); 'disk' writes .npy files beside the images (their decoded size on disk).</source>
      <translation>保存解码后的图片，这样从第二轮起就不再解码 JPEG：'ram' 最快，但需要能放下整个数据集的内存（yolov5 会检查是否够用）；'disk' 在图片旁写 .npy 文件（占用解码后大小的磁盘空间）。</translation>
    </message>
    <message>
      <source>Keep the first N layers fixed while fine-tuning (10 = the backbone): faster steps and less memory, but those layers don't adapt to your data.</source>
      <translation>微调时保持前 N 层不变（10 = 主干网络）：步骤更快、显存更省，但这些层不会适应你的数据。</translation>
    </message>
    <message>
      <source>Keep the model's anchors instead of checking them against your boxes (and re-fitting them when they fit badly).</source>
      <translation>保留模型的锚框，而不是用你的框检查它们（并在不匹配时重新拟合）。</translation>
    </message>
    <message>
      <source>Keep this ROCm build of PyTorch; if it is damaged, reinstall the same ROCm build from https://pytorch.org/get-started/locally/ (ROCm).</source>
      <translation>保留这个 ROCm 版 PyTorch；如果它已损坏，请从 https://pytorch.org/get-started/locally/ 重新安装同一个 ROCm 版本（选择 ROCm）。</translation>
    </message>
    <message>
      <source>Keeping the workspace and settings.</source>
      <translation>保留工作区和设置。</translation>
    </message>
    <message>
      <source>Key '{key}' appears twice (first on line {first}). yolov5's loader silently keeps the last one; delete the one you do not mean.</source>
      <translation>键 '{key}' 出现了两次（第一次在第 {first} 行）。yolov5 的加载器会静默保留最后一个；请删除你不想要的那个。</translation>
    </message>
    <message>
      <source>Killing the worker; the last saved checkpoint is kept.</source>
      <translation>正在强制结束工作进程；最后保存的检查点会保留。</translation>
    </message>
    <message>
      <source>Label about {n} more '{name}' objects (to the median).</source>
      <translation>再标注约 {n} 个 '{name}' 目标（达到中位数）。</translation>
    </message>
    <message>
      <source>Label smoothing</source>
      <translation>标签平滑</translation>
    </message>
    <message>
      <source>Labelling {index}/{count}: {image} ({n} proposed)</source>
      <translation>自动标注 {index}/{count}：{image}（建议 {n} 个框）</translation>
    </message>
    <message>
      <source>Large P6: 1280 px, high accuracy; needs a large GPU and a large dataset.</source>
      <translation>大型 P6：1280 像素，高精度；需要大显存 GPU 和大数据集。</translation>
    </message>
    <message>
      <source>Large images and the best-accuracy goal: 1280 keeps small details.</source>
      <translation>大图且目标是最高精度：1280 能保留小细节。</translation>
    </message>
    <message>
      <source>Large: higher accuracy for larger datasets; needs a GPU with plenty of memory.</source>
      <translation>大型：适合更大的数据集，精度更高；需要显存充足的 GPU。</translation>
    </message>
    <message>
      <source>Last weights: {path}</source>
      <translation>最后权重：{path}</translation>
    </message>
    <message>
      <source>Latency per format</source>
      <translation>各格式的延迟</translation>
    </message>
    <message>
      <source>Latency per image, measured side by side ({runs} interleaved runs each, {device}): PyTorch {torch} ms ({torch_low}–{torch_high}) · {client} {exported} ms ({low}–{high}); median (10–90 % range)</source>
      <translation>每张图片的延迟，并排交替测量（各 {runs} 次，{device}）：PyTorch {torch} 毫秒（{torch_low}–{torch_high}）· {client} {exported} 毫秒（{low}–{high}）；中位数（10–90 % 区间）</translation>
    </message>
    <message>
      <source>Latency per image: PyTorch {torch} ms · {client} {exported} ms (median of {runs}, {device})</source>
      <translation>每张图片的延迟：PyTorch {torch} 毫秒 · {client} {exported} 毫秒（{runs} 次的中位数，{device}）</translation>
    </message>
    <message>
      <source>Leader address</source>
      <translation>主机器地址</translation>
    </message>
    <message>
      <source>Leader port</source>
      <translation>主机器端口</translation>
    </message>
    <message>
      <source>Learning rate, loss weights and augmentation: hyp.scratch-low suits small models from scratch, scratch-high the large ones; or the path of your own file.</source>
      <translation>学习率、损失权重和数据增强：hyp.scratch-low 适合从头训练的小模型，scratch-high 适合大模型；也可以是你自己的文件路径。</translation>
    </message>
    <message>
      <source>Limit</source>
      <translation>限度</translation>
    </message>
    <message>
      <source>Line {line} of {name}: class {old} becomes {new} ({cls}); backup kept as {name}.bak</source>
      <translation>{name} 的第 {line} 行：类别 {old} 改为 {new}（{cls}）；原文件保留为 {name}.bak</translation>
    </message>
    <message>
      <source>Line {line} uses a tab to indent; YAML allows only spaces there ({problem}).</source>
      <translation>第 {line} 行用制表符缩进；YAML 在此处只允许空格（{problem}）。</translation>
    </message>
    <message>
      <source>List the queues with 'yolostudio label queue'.</source>
      <translation>用 'yolostudio label queue' 列出所有队列。</translation>
    </message>
    <message>
      <source>List the runs with 'yolostudio runs'.</source>
      <translation>用 'yolostudio runs' 列出所有训练记录。</translation>
    </message>
    <message>
      <source>Lists and mappings nest more than {limit} levels deep at line {line}; a data.yaml needs three.</source>
      <translation>第 {line} 行的列表和映射嵌套超过 {limit} 层；data.yaml 只需要三层。</translation>
    </message>
    <message>
      <source>Loading the original images keeps up; a copy or a cache would not be faster.</source>
      <translation>加载原图就跟得上；副本或缓存都不会更快。</translation>
    </message>
    <message>
      <source>Look at that rank's worker log (worker.rank&lt;N&gt;.log in the run folder of its node) and the launcher's output; fix the cause, then resume: the last checkpoint is kept.</source>
      <translation>请查看该进程的日志（其节点训练文件夹中的 worker.rank&lt;N&gt;.log）和启动器的输出；排除原因后继续训练：最近的检查点已保留。</translation>
    </message>
    <message>
      <source>Lower the learning rate along a cosine curve instead of linearly; sometimes a little more accuracy at the end, at no cost.</source>
      <translation>按余弦曲线而不是线性降低学习率；有时最终精度会略高，没有额外开销。</translation>
    </message>
    <message>
      <source>MIG slice</source>
      <translation>MIG 切片</translation>
    </message>
    <message>
      <source>MIG slices</source>
      <translation>MIG 切片</translation>
    </message>
    <message>
      <source>MIG splits the GPU into isolated instances, and a CUDA process uses one of them, so training runs at about {fraction} of the whole GPU's speed with {memory} for its batches. Slices cannot be combined for one training (no DataParallel or DDP over MIG instances).</source>
      <translation>MIG 把 GPU 划分为相互隔离的实例，一个 CUDA 进程只使用其中一个，因此训练速度约为整块 GPU 的 {fraction}，批次可用 {memory}。多个切片不能合并用于一次训练（MIG 实例之间不能使用 DataParallel 或 DDP）。</translation>
    </message>
    <message>
      <source>Machine name {name!r}: use letters, digits, '.', '_' or '-' (at most 64).</source>
      <translation>机器名称 {name!r}：请使用字母、数字、'.'、'_' 或 '-'（最多 64 个）。</translation>
    </message>
    <message>
      <source>Machine rank {rank} but only {nnodes} machine(s).</source>
      <translation>机器编号为 {rank}，但总共只有 {nnodes} 台机器。</translation>
    </message>
    <message>
      <source>Machine {name} ({dest}):</source>
      <translation>机器 {name}（{dest}）：</translation>
    </message>
    <message>
      <source>Machine {name}: the remote folder and command must not be empty.</source>
      <translation>机器 {name}：远程文件夹和命令不能为空。</translation>
    </message>
    <message>
      <source>Machine {rank} needs the run id of machine 0.</source>
      <translation>第 {rank} 台机器需要第 0 台机器的运行 ID。</translation>
    </message>
    <message>
      <source>Machines</source>
      <translation>机器数</translation>
    </message>
    <message>
      <source>Max abs difference vs PyTorch: {diff} (boxes {boxes} px, scores {scores}), {precision}</source>
      <translation>与 PyTorch 的最大绝对差：{diff}（框 {boxes} 像素，分数 {scores}），{precision}</translation>
    </message>
    <message>
      <source>Measured by the export on the machine that exported, timed interleaved with PyTorch.</source>
      <translation>由导出在执行导出的机器上测得，与 PyTorch 交替计时。</translation>
    </message>
    <message>
      <source>Measured under load, so it is the slot, riser or card seating, not power saving.</source>
      <translation>这是在负载下测得的，因此原因在插槽、转接线或显卡安装，而不是省电。</translation>
    </message>
    <message>
      <source>Measuring failed: {reason}</source>
      <translation>测量失败：{reason}</translation>
    </message>
    <message>
      <source>Measuring this machine (about a minute; Ctrl+C stops and recommends with what was measured)…</source>
      <translation>正在测量这台机器（约一分钟；Ctrl+C 可停止，并用已测得的结果给出推荐）…</translation>
    </message>
    <message>
      <source>Medium P6: 1280 px, more accurate; needs a large GPU at that size.</source>
      <translation>中型 P6：1280 像素，更准；在该尺寸下需要大显存 GPU。</translation>
    </message>
    <message>
      <source>Medium: clearly more accurate than s for about 3x the compute; a good default on a strong GPU.</source>
      <translation>中型：比 s 明显更准，计算量约为其 3 倍；在强劲的 GPU 上是不错的默认选择。</translation>
    </message>
    <message>
      <source>Mixed GPUs</source>
      <translation>混合 GPU</translation>
    </message>
    <message>
      <source>Mixed precision (AMP)</source>
      <translation>混合精度（AMP）</translation>
    </message>
    <message>
      <source>Mixed precision (AMP) is unreliable on {name}</source>
      <translation>混合精度（AMP）在 {name} 上不可靠</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Model definition not found: {model}</source>
      <translation>找不到模型定义：{model}</translation>
    </message>
    <message>
      <source>Move more labelled images to val (about 10–20 % of the dataset).</source>
      <translation>把更多已标注图片移到 val（约占数据集的 10–20 %）。</translation>
    </message>
    <message>
      <source>Move {name} and its label {label} out of the split into {target}</source>
      <translation>把 {name} 及其标注 {label} 移出划分，放入 {target}</translation>
    </message>
    <message>
      <source>Move {name} out of the split into {target}</source>
      <translation>把 {name} 移出划分，放入 {target}</translation>
    </message>
    <message>
      <source>Move {name} to {target}</source>
      <translation>把 {name} 移到 {target}</translation>
    </message>
    <message>
      <source>Multi-scale</source>
      <translation>多尺度</translation>
    </message>
    <message>
      <source>NAME</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>NMS IoU threshold (default: 0.6, as yolov5)</source>
      <translation>NMS IoU 阈值（默认：0.6，与 yolov5 相同）</translation>
    </message>
    <message>
      <source>NMS IoU threshold (default: {v})</source>
      <translation>NMS IoU 阈值（默认：{v}）</translation>
    </message>
    <message>
      <source>NMS confidence threshold (default: 0.001, as yolov5)</source>
      <translation>NMS 置信度阈值（默认：0.001，与 yolov5 相同）</translation>
    </message>
    <message>
      <source>NOT verified</source>
      <translation>未通过验证</translation>
    </message>
    <message>
      <source>NVIDIA GPU present</source>
      <translation>存在 NVIDIA GPU</translation>
    </message>
    <message>
      <source>NVML</source>
      <translation>NVML</translation>
    </message>
    <message>
      <source>NVML (the driver's management library) answered with an error: the driver and GPUs cannot be checked, and training may not see the GPU.</source>
      <translation>NVML（驱动的管理库）返回了错误：无法检查驱动和 GPU，训练也可能看不到 GPU。</translation>
    </message>
    <message>
      <source>NVML answers 'Driver/library version mismatch': the driver's libraries on disk are a newer version than its kernel module in memory{versions}, which happens after a driver update without a reboot. Until the new module is loaded, neither nvidia-smi nor CUDA works. Nothing needs to be installed or reinstalled.</source>
      <translation>NVML 报告 'Driver/library version mismatch'：磁盘上的驱动库比内存中的驱动内核模块版本更新{versions}，这发生在更新驱动后没有重启的情况下。在加载新模块之前，nvidia-smi 和 CUDA 都无法工作。不需要安装或重新安装任何东西。</translation>
    </message>
    <message>
      <source>NVML error</source>
      <translation>NVML 错误</translation>
    </message>
    <message>
      <source>NVML is not available ({error})</source>
      <translation>NVML 不可用（{error}）</translation>
    </message>
    <message>
      <source>NVML library (on disk)</source>
      <translation>NVML 库（磁盘上）</translation>
    </message>
    <message>
      <source>NVML lists no GPU</source>
      <translation>NVML 没有列出任何 GPU</translation>
    </message>
    <message>
      <source>NVML lists the GPU, but CUDA does not start in torch, so training would run on the CPU.</source>
      <translation>NVML 列出了 GPU，但 CUDA 在 torch 中无法启动，所以训练会在 CPU 上进行。</translation>
    </message>
    <message>
      <source>NVML lists the GPU, but CUDA does not start in torch. {why}</source>
      <translation>NVML 列出了这块 GPU，但 CUDA 无法在 torch 中启动。{why}</translation>
    </message>
    <message>
      <source>NVML lists {count} GPU(s), but CUDA — and so PyTorch and yolov5 — sees only the GPUs {variable} lets through. {why} {consequence} Correct or unset the variable where it is set (your shell profile, the service's or the container's environment); nothing needs to be reinstalled or rebooted.</source>
      <translation>NVML 列出了 {count} 块 GPU，但 CUDA——以及 PyTorch 和 yolov5——只能看到 {variable} 放行的 GPU。{why}{consequence}请在设置该变量的地方（你的终端配置文件、服务或容器的环境）更正或取消它；无需重装或重启。</translation>
    </message>
    <message>
      <source>NVML not found inside WSL</source>
      <translation>WSL 中找不到 NVML</translation>
    </message>
    <message>
      <source>NVML was not started</source>
      <translation>NVML 尚未启动</translation>
    </message>
    <message>
      <source>Name a folder under {root} (yolostudio tune … --resume NAME).</source>
      <translation>请指定 {root} 下的一个文件夹（yolostudio tune … --resume NAME）。</translation>
    </message>
    <message>
      <source>Name as many GPUs as processes, or set processes per machine to 0 (one per GPU).</source>
      <translation>请列出与进程数相同数量的 GPU，或把每台机器的进程数设为 0（每块 GPU 一个）。</translation>
    </message>
    <message>
      <source>Name each GPU once, e.g. {fixed}.</source>
      <translation>每块 GPU 只写一次，例如 {fixed}。</translation>
    </message>
    <message>
      <source>Nano P6: trained at 1280 px with a fourth output layer, for small objects in large images.</source>
      <translation>超小型 P6：以 1280 像素训练，多一个输出层，适合大图中的小目标。</translation>
    </message>
    <message>
      <source>Nano: the smallest and fastest — CPUs, edge devices and quick experiments; lowest accuracy.</source>
      <translation>超小型：最小最快——适合 CPU、边缘设备和快速实验；精度最低。</translation>
    </message>
    <message>
      <source>No INT8 export of this run: {command}</source>
      <translation>这次训练没有 INT8 导出：{command}</translation>
    </message>
    <message>
      <source>No NVIDIA GPU found: training runs on the CPU</source>
      <translation>未找到 NVIDIA GPU：训练将在 CPU 上进行</translation>
    </message>
    <message>
      <source>No NVIDIA GPU was found on this machine; {tag} will run on the CPU only.</source>
      <translation>这台机器上没有找到 NVIDIA GPU；{tag} 只能在 CPU 上运行。</translation>
    </message>
    <message>
      <source>No NVIDIA GPU was found, so the CPU build of PyTorch is installed (it is also much smaller).</source>
      <translation>没有找到 NVIDIA GPU，所以安装了 CPU 版 PyTorch（它也小得多）。</translation>
    </message>
    <message>
      <source>No PyTorch CUDA build runs here: {reason}</source>
      <translation>这里无法运行任何 CUDA 版 PyTorch：{reason}</translation>
    </message>
    <message>
      <source>No PyTorch CUDA wheel runs on driver {driver} for {gpus}; the CPU build is installed. Update the driver, then run the installer again.</source>
      <translation>没有 PyTorch CUDA 安装包能在驱动 {driver} 上为 {gpus} 运行；已安装 CPU 版本。请更新驱动，然后重新运行安装程序。</translation>
    </message>
    <message>
      <source>No PyTorch {release} build runs on driver {driver}: the fix is the driver — update it to {wanted} or newer.</source>
      <translation>没有任何 PyTorch {release} 构建能在驱动 {driver} 上运行：要修的是驱动——请更新到 {wanted} 或更新版本。</translation>
    </message>
    <message>
      <source>No Ray cluster answers at {address} ({reason}).</source>
      <translation>{address} 上没有 Ray 集群应答（{reason}）。</translation>
    </message>
    <message>
      <source>No cache (read each image from disk)</source>
      <translation>不缓存（每次从磁盘读取图片）</translation>
    </message>
    <message>
      <source>No camera at index {index}: it does not exist or another program holds it.</source>
      <translation>编号 {index} 处没有摄像头：它不存在，或正被另一个程序占用。</translation>
    </message>
    <message>
      <source>No dataset chosen.</source>
      <translation>未选择数据集。</translation>
    </message>
    <message>
      <source>No detection at this confidence: precision is undefined and recall is 0.</source>
      <translation>此置信度下没有任何检测：精确率无定义，召回率为 0。</translation>
    </message>
    <message>
      <source>No export of this run yet: {command}</source>
      <translation>这次训练还没有导出：{command}</translation>
    </message>
    <message>
      <source>No images could be read to verify the export.</source>
      <translation>没有能读取的图片来验证导出结果。</translation>
    </message>
    <message>
      <source>No label file ({label}). yolov5 trains on it as a background image (no objects); fine if that is meant.</source>
      <translation>没有标签文件（{label}）。yolov5 会把它当作背景图（没有目标）来训练；如果本意如此就没问题。</translation>
    </message>
    <message>
      <source>No machine named {name}; 'yolostudio machine list' shows them, 'yolostudio machine add' adds one.</source>
      <translation>没有名为 {name} 的机器；'yolostudio machine list' 列出已有机器，'yolostudio machine add' 添加一台。</translation>
    </message>
    <message>
      <source>No machines yet: 'yolostudio machine add NAME --ssh HOST' adds one.</source>
      <translation>还没有机器：'yolostudio machine add NAME --ssh HOST' 可添加一台。</translation>
    </message>
    <message>
      <source>No model chosen.</source>
      <translation>未选择模型。</translation>
    </message>
    <message>
      <source>No official pretrained checkpoint matches {model}: training from scratch, which needs many more epochs.</source>
      <translation>没有与 {model} 匹配的官方预训练检查点：将从头训练，需要多得多的轮数。</translation>
    </message>
    <message>
      <source>No permission to talk to the GPU driver</source>
      <translation>没有权限访问 GPU 驱动</translation>
    </message>
    <message>
      <source>No plots</source>
      <translation>不绘图</translation>
    </message>
    <message>
      <source>No pretrained weights on this machine: training from scratch needs many more epochs. Get {file} ({size}) to fine-tune instead.</source>
      <translation>本机没有预训练权重：从头训练需要多得多的轮数。获取 {file}（{size}）即可改为微调。</translation>
    </message>
    <message>
      <source>No review queue named '{name}' (looked in {path}).</source>
      <translation>没有名为“{name}”的审核队列（查找位置：{path}）。</translation>
    </message>
    <message>
      <source>No review queues yet. Start one with: yolostudio label auto RUN --images DIR</source>
      <translation>还没有审核队列。用以下命令新建：yolostudio label auto RUN --images DIR</translation>
    </message>
    <message>
      <source>No run folder at {path}.</source>
      <translation>{path} 处没有训练文件夹。</translation>
    </message>
    <message>
      <source>No run named {run} in {folder}.</source>
      <translation>{folder} 中没有名为 {run} 的训练。</translation>
    </message>
    <message>
      <source>No runs yet in {folder}. Start one with: yolostudio train DATA.yaml</source>
      <translation>{folder} 中还没有训练。用以下命令开始：yolostudio train DATA.yaml</translation>
    </message>
    <message>
      <source>No shortcut was created.</source>
      <translation>没有创建快捷方式。</translation>
    </message>
    <message>
      <source>No single PyTorch wheel has kernels for every GPU here ({all}): sm_50–sm_70 need cu126 and Blackwell needs cu130 or cu132. {tag} serves {usable}; {left_out} cannot be used for training (choose the other GPUs with --device {devices}).</source>
      <translation>没有一个 PyTorch安装包同时包含这里每块 GPU 的内核（{all}）：sm_50–sm_70 需要 cu126，Blackwell 需要 cu130 或 cu132。{tag} 可用于 {usable}；{left_out} 无法用于训练（用 --device {devices} 选择其他 GPU）。</translation>
    </message>
    <message>
      <source>No space left on device: writing {file} needs about {needed}; {free} free in {folder}.</source>
      <translation>磁盘空间不足：写入 {file} 约需 {needed}；{folder} 中仅剩 {free}。</translation>
    </message>
    <message>
      <source>No training image has a usable label. yolov5 refuses to start ('{reason} … can not start training'); label some images, or check that the labels sit in a 'labels' folder beside 'images'.</source>
      <translation>没有任何训练图片带有可用的标签。yolov5 拒绝启动（'{reason} … can not start training'）；请标注一些图片，或确认标签放在与 'images' 并列的 'labels' 文件夹中。</translation>
    </message>
    <message>
      <source>No training images to calibrate INT8 on in {data}.</source>
      <translation>{data} 中没有可用于校准 INT8 的训练图片。</translation>
    </message>
    <message>
      <source>No usable GPU: the CPU.</source>
      <translation>没有可用的 GPU：使用 CPU。</translation>
    </message>
    <message>
      <source>Node {node}: the dataset {data} is not there; every node needs it at the same path.</source>
      <translation>节点 {node}：数据集 {data} 不存在；每个节点都需要在相同路径下有它。</translation>
    </message>
    <message>
      <source>Node {node}: {package} {here} differs from {wanted} on the machine that started the search; install the same version on every node.</source>
      <translation>节点 {node}：{package} {here} 与启动搜索的机器上的 {wanted} 不同；请在每个节点上安装相同版本。</translation>
    </message>
    <message>
      <source>None of them has an automatic fix: each says what to do; change the files, then check again.</source>
      <translation>它们都没有自动修复：每条都说明了该怎么做；改好文件后再检查一次。</translation>
    </message>
    <message>
      <source>Not an official YOLOv5 v7.0 checkpoint: {names}.</source>
      <translation>不是官方 YOLOv5 v7.0 检查点：{names}。</translation>
    </message>
    <message>
      <source>Not converted ({n}):</source>
      <translation>未能转换（{n}）：</translation>
    </message>
    <message>
      <source>Not enough RAM to cache this dataset</source>
      <translation>内存不足，无法缓存这个数据集</translation>
    </message>
    <message>
      <source>Not enough disk space in {folder}: {free} MB free, about {need} MB needed.</source>
      <translation>{folder} 中磁盘空间不足：可用 {free} MB，需要约 {need} MB。</translation>
    </message>
    <message>
      <source>Not enough disk space: the install needs about {needed:.1f} GB, {free:.1f} GB are free under {path}. Free some space, or install elsewhere with --prefix DIR.</source>
      <translation>磁盘空间不足：安装需要约 {needed:.1f} GB，{path} 下只有 {free:.1f} GB 可用。请清理空间，或用 --prefix DIR 安装到别处。</translation>
    </message>
    <message>
      <source>Not enough free RAM for {train} data-loader workers</source>
      <translation>可用内存不足以运行 {train} 个数据加载进程</translation>
    </message>
    <message>
      <source>Not imported.</source>
      <translation>未导入。</translation>
    </message>
    <message>
      <source>Not imported: nobody can be asked here.</source>
      <translation>未导入：这里无法询问用户。</translation>
    </message>
    <message>
      <source>Not measured with a cache.</source>
      <translation>没有测量带缓存的情况。</translation>
    </message>
    <message>
      <source>Not measured — {step}: {why}</source>
      <translation>未测量 — {step}：{why}</translation>
    </message>
    <message>
      <source>Not measured: as many as the limits allow, at most 8.</source>
      <translation>未测量：在限制允许范围内尽量多，最多 8 个。</translation>
    </message>
    <message>
      <source>Not measured: images {side} px against imgsz {imgsz}.</source>
      <translation>未测量：图片 {side} 像素，而图片尺寸为 {imgsz}。</translation>
    </message>
    <message>
      <source>Not needed: the loader is as fast without it.</source>
      <translation>不需要：没有它加载器也一样快。</translation>
    </message>
    <message>
      <source>Not ready to train — here is why: {reason}</source>
      <translation>还不能训练——原因：{reason}</translation>
    </message>
    <message>
      <source>Not repaired: add --yes to install without asking.</source>
      <translation>未修复：加上 --yes 可不经询问直接安装。</translation>
    </message>
    <message>
      <source>Not repaired: {reason}</source>
      <translation>未修复：{reason}</translation>
    </message>
    <message>
      <source>Not valid YAML: {reason}</source>
      <translation>不是有效的 YAML：{reason}</translation>
    </message>
    <message>
      <source>Note: {path} exists and is not ours; left alone (the command is {cli}).</source>
      <translation>注意：{path} 已存在且不是本应用创建的；保持原样（命令是 {cli}）。</translation>
    </message>
    <message>
      <source>Note: {text}</source>
      <translation>注意：{text}</translation>
    </message>
    <message>
      <source>Notes (nothing kept was changed):</source>
      <translation>备注（保留的内容没有任何改动）：</translation>
    </message>
    <message>
      <source>Nothing answers at {host}:{port} after {seconds:.0f} s.</source>
      <translation>{seconds:.0f} 秒后 {host}:{port} 仍无响应。</translation>
    </message>
    <message>
      <source>Nothing needs to be reinstalled.</source>
      <translation>不需要重新安装任何东西。</translation>
    </message>
    <message>
      <source>Nothing to fix. Watch the GPU with rocm-smi.</source>
      <translation>无需修复。可用 rocm-smi 查看 GPU 状态。</translation>
    </message>
    <message>
      <source>Nothing to fix. Watch the GPU with tegrastats.</source>
      <translation>无需修复。可用 tegrastats 查看 GPU 状态。</translation>
    </message>
    <message>
      <source>Nothing to repair: none of the findings is fixed by another PyTorch build.</source>
      <translation>无需修复：这些问题都不能靠更换 PyTorch 版本解决。</translation>
    </message>
    <message>
      <source>Nothing was changed.</source>
      <translation>没有做任何更改。</translation>
    </message>
    <message>
      <source>Nothing was changed. Check the network connection (or the proxy pip uses), then try again.</source>
      <translation>没有做任何更改。请检查网络连接（或 pip 使用的代理），然后重试。</translation>
    </message>
    <message>
      <source>Nothing was stored. Check where the file came from.</source>
      <translation>没有保存任何东西。请检查文件的来源。</translation>
    </message>
    <message>
      <source>Number the machines 0 to {last}.</source>
      <translation>请把机器编号为 0 到 {last}。</translation>
    </message>
    <message>
      <source>OK</source>
      <translation>正常</translation>
    </message>
    <message>
      <source>OK: no errors ({w} warnings, {i} notes).</source>
      <translation>正常：没有错误（{w} 个警告，{i} 条提示）。</translation>
    </message>
    <message>
      <source>ONNX opset {opset} is outside {low}–{high}, the range of the exporter used.</source>
      <translation>ONNX opset {opset} 超出了所用导出器支持的范围 {low}–{high}。</translation>
    </message>
    <message>
      <source>OS</source>
      <translation>操作系统</translation>
    </message>
    <message>
      <source>Objects</source>
      <translation>目标数</translation>
    </message>
    <message>
      <source>Off (yolov5's workers augment)</source>
      <translation>关闭（由 yolov5 的工作进程增强）</translation>
    </message>
    <message>
      <source>On (batches augmented on the device)</source>
      <translation>开启（在设备上按批次增强）</translation>
    </message>
    <message>
      <source>On Windows (not inside WSL), install NVIDIA's Windows driver {driver} or newer from https://www.nvidia.com/Download/index.aspx, then run 'wsl --shutdown' and reopen WSL. Never install a Linux NVIDIA driver inside WSL: WSL uses the Windows driver.</source>
      <translation>在 Windows 上（不是在 WSL 里）从 https://www.nvidia.com/Download/index.aspx 安装 NVIDIA 的 Windows 驱动 {driver} 或更新版本，然后运行 'wsl --shutdown' 并重新打开 WSL。切勿在 WSL 里安装 Linux 版 NVIDIA 驱动：WSL 使用的是 Windows 驱动。</translation>
    </message>
    <message>
      <source>On Windows every data-loader worker is a new process that imports torch, and each commits memory against the commit limit (RAM plus page file). The training process and its {train} training and {val} validation workers need at least {need:.1f} GB and {available:.1f} GB can still be committed; past the limit a worker fails with 'WinError 1455: The paging file is too small for this operation to complete'.</source>
      <translation>在 Windows 上，每个数据加载进程都是一个导入 torch 的新进程，每个进程都按提交上限（内存加页面文件）提交内存。训练进程及其 {train} 个训练加载进程和 {val} 个验证加载进程至少需要 {need:.1f} GB，而目前还能提交 {available:.1f} GB；超过上限时加载进程会失败并报 'WinError 1455: The paging file is too small for this operation to complete'。</translation>
    </message>
    <message>
      <source>On Windows, check the NVIDIA driver (Device Manager, or nvidia-smi in a Windows terminal) and update it if needed, then run 'wsl --shutdown' and reopen WSL. Never install a Linux NVIDIA driver inside WSL.</source>
      <translation>在 Windows 上检查 NVIDIA 驱动（设备管理器，或在 Windows 终端里运行 nvidia-smi），必要时更新，然后运行 'wsl --shutdown' 并重新打开 WSL。切勿在 WSL 里安装 Linux 版 NVIDIA 驱动。</translation>
    </message>
    <message>
      <source>On a laptop this follows a suspend and resume: the driver's unified-memory module (nvidia_uvm) does not come back, so CUDA answers 'unknown error' until it is reloaded.</source>
      <translation>在笔记本电脑上，这发生在休眠并唤醒之后：驱动的统一内存模块（nvidia_uvm）没有恢复，所以在重新加载它之前，CUDA 一直报告 'unknown error'。</translation>
    </message>
    <message>
      <source>On machine {rank}, run: {command}</source>
      <translation>在第 {rank} 台机器上运行：{command}</translation>
    </message>
    <message>
      <source>On the CPU the augmentation would run on the same cores as the model and the loader: nothing to gain.</source>
      <translation>在 CPU 上，数据增强会与模型和加载器共用同样的核心：没有收益。</translation>
    </message>
    <message>
      <source>On the CPU the cores are the limit, not the batch: images/s barely change with it. 16 is yolov5's default (gradients add up to {nbs} images per step either way).</source>
      <translation>在 CPU 上，瓶颈是核心而不是批大小：每秒图片数几乎不随它变化。16 是 yolov5 的默认值（无论如何，梯度都会累积到每步 {nbs} 张图片）。</translation>
    </message>
    <message>
      <source>On the CPU the loader workers and the model share {c} cores: {w} gives the most images/s.</source>
      <translation>在 CPU 上，加载进程和模型共用 {c} 个核心：{w} 个时每秒图片数最多。</translation>
    </message>
    <message>
      <source>On the Dataset page, Fix… can {what} (previewed and undoable).</source>
      <translation>在“数据集”页上，“修复…”可以{what}（先预览，可撤销）。</translation>
    </message>
    <message>
      <source>On the host (not inside this container): reboot it — or, with nothing using the GPU, reload the modules: {reload} — then restart the container.</source>
      <translation>在宿主机上（不是在这个容器里）：重启宿主机——或在没有程序使用 GPU 时重新加载模块：{reload}——然后重启容器。</translation>
    </message>
    <message>
      <source>On the host (not inside this container): sudo modprobe nvidia, or reboot the host after a driver update; then restart the container.</source>
      <translation>在宿主机上（不是在此容器里）：sudo modprobe nvidia，或在驱动更新后重启宿主机；然后重启容器。</translation>
    </message>
    <message>
      <source>On the host (not inside this container): {reload}, then restart the container.</source>
      <translation>在宿主机上（不是在这个容器里）：{reload}，然后重启容器。</translation>
    </message>
    <message>
      <source>On this CPU {goal_n} epochs would take {total}: cut to fit the {goal} goal's {budget} (set a time budget to choose another length).</source>
      <translation>在这台 CPU 上 {goal_n} 轮需要 {total}：已减少以符合“{goal}”目标的 {budget}（设置时间预算可选择其他时长）。</translation>
    </message>
    <message>
      <source>Once per run: the first epoch {warmup:.1f} s longer (first steps), {start:.0f} s filling the cache before it; {rate:.0f} images/s over the whole run</source>
      <translation>每次训练一次性的开销：第一轮多 {warmup:.1f} 秒（最初几步），之前填充缓存 {start:.0f} 秒；整个训练平均 {rate:.0f} 张/秒</translation>
    </message>
    <message>
      <source>Only a class id, in a file of polygons. yolov5 drops the image as corrupt ('zero-size array to reduction operation'): a polygon row is a class and x y pairs.</source>
      <translation>在多边形标签文件中只有一个类别 id。yolov5 会把图片当作损坏丢弃（'zero-size array to reduction operation'）：多边形行是类别加若干 x y 坐标对。</translation>
    </message>
    <message>
      <source>Only yolov5 detection models export here.</source>
      <translation>这里只能导出 yolov5 检测模型。</translation>
    </message>
    <message>
      <source>Only {free:.1f} GB free for the workspace</source>
      <translation>工作区只剩 {free:.1f} GB 可用空间</translation>
    </message>
    <message>
      <source>Only {usable} of {logical} CPUs are usable, but yolov5 will start {train} data-loader workers</source>
      <translation>{logical} 个 CPU 中只有 {usable} 个可用，但 yolov5 会启动 {train} 个数据加载进程</translation>
    </message>
    <message>
      <source>OpenCV DNN: max abs difference {diff}, agreement {pct}</source>
      <translation>OpenCV DNN：最大绝对差 {diff}，一致率 {pct}</translation>
    </message>
    <message>
      <source>OpenCV DNN: not checked ({reason})</source>
      <translation>OpenCV DNN：未检查（{reason}）</translation>
    </message>
    <message>
      <source>OpenCV's DNN reads only static FP32 models</source>
      <translation>OpenCV 的 DNN 只能读取静态的 FP32 模型</translation>
    </message>
    <message>
      <source>OpenVINO INT8 needs the 'nncf' package, which is not installed.</source>
      <translation>OpenVINO INT8 需要 'nncf' 包，但尚未安装。</translation>
    </message>
    <message>
      <source>OpenVINO export needs the 'openvino' package, which is not installed.</source>
      <translation>OpenVINO 导出需要 'openvino' 包，但它尚未安装。</translation>
    </message>
    <message>
      <source>Operating confidence</source>
      <translation>工作置信度</translation>
    </message>
    <message>
      <source>Optimizer</source>
      <translation>优化器</translation>
    </message>
    <message>
      <source>Other programs are using the CPU this training needs</source>
      <translation>其他程序正在占用本次训练需要的 CPU</translation>
    </message>
    <message>
      <source>Other programs held {others:.0f}% of all cores while this training got {own:.0f}% (the machine {cpu:.0f}% busy), and its threads waited {wait:.1f} s per second for a free core: training runs slower than this machine can train, and its settings are not the cause. Close or pause the other programs, or train when they are done.</source>
      <translation>其他程序占用了全部核心的 {others:.0f}%，本次训练只得到 {own:.0f}%（整机 {cpu:.0f}% 繁忙），它的线程每秒要等 {wait:.1f} 秒才轮到空闲核心：训练比这台机器本来能达到的速度慢，原因不在训练设置。请关闭或暂停其他程序，或等它们结束后再训练。</translation>
    </message>
    <message>
      <source>Other programs run CUDA on this GPU. {why}</source>
      <translation>有其他程序在这块 GPU 上运行 CUDA。{why}</translation>
    </message>
    <message>
      <source>Out of memory at batch 1 with {model} at imgsz {imgsz}.</source>
      <translation>{model} 在图片尺寸 {imgsz}、批大小 1 时显存不足。</translation>
    </message>
    <message>
      <source>Over several GPUs every training step waits for the slowest card, and each card gets the same share of the batch, so the weak card would set the pace and the memory limit for all. Train on the strong card alone (never DataParallel or DDP over both).</source>
      <translation>使用多块 GPU 时，每个训练步骤都要等待最慢的那块卡，而且每块卡分到相同份额的批次，因此弱卡会决定所有卡的速度和显存上限。请只用强卡训练（不要在两者之间使用 DataParallel 或 DDP）。</translation>
    </message>
    <message>
      <source>PARAMS</source>
      <translation>参数量</translation>
    </message>
    <message>
      <source>PCIe</source>
      <translation>PCIe</translation>
    </message>
    <message>
      <source>PCIe gen {gen} x{width}</source>
      <translation>PCIe 第 {gen} 代 x{width}</translation>
    </message>
    <message>
      <source>Passes over the training images. Accuracy keeps improving until it levels off (Patience then stops early); every epoch costs the same time.</source>
      <translation>遍历训练图片的次数。精度会持续提升直到趋于平稳（之后“耐心值”会提前停止）；每一轮的耗时相同。</translation>
    </message>
    <message>
      <source>Patience</source>
      <translation>耐心值</translation>
    </message>
    <message>
      <source>Per-GPU batches are large enough for their own statistics.</source>
      <translation>每块 GPU 的批大小足够大，可以使用各自的统计量。</translation>
    </message>
    <message>
      <source>Per-GPU batches of {n} or fewer give noisy batch statistics: synchronise them across GPUs.</source>
      <translation>每块 GPU 的批大小不超过 {n} 时，批统计量噪声较大：请在各 GPU 之间同步它们。</translation>
    </message>
    <message>
      <source>Pick a best.pt or last.pt written by yolov5 training.</source>
      <translation>请选择由 yolov5 训练写出的 best.pt 或 last.pt。</translation>
    </message>
    <message>
      <source>Pick a best.pt or last.pt written by yolov5 training; if it was copied or downloaded, copy it again.</source>
      <translation>请选择由 yolov5 训练写出的 best.pt 或 last.pt；如果它是复制或下载来的，请重新复制。</translation>
    </message>
    <message>
      <source>Pick a device from 0 to {last}.</source>
      <translation>请选择 0 到 {last} 之间的设备。</translation>
    </message>
    <message>
      <source>Pick a new, empty folder for the imported dataset, or remove that one first.</source>
      <translation>为导入的数据集选择一个新的空文件夹，或先删除那个文件夹。</translation>
    </message>
    <message>
      <source>Pick another GPU, or end what runs on it (nvidia-smi lists the processes).</source>
      <translation>请换一块 GPU，或结束在其上运行的程序（nvidia-smi 会列出这些进程）。</translation>
    </message>
    <message>
      <source>Pick another port (e.g. {other}) and use the same one on every machine.</source>
      <translation>请换一个端口（例如 {other}），并在每台机器上使用同一个端口。</translation>
    </message>
    <message>
      <source>Pick the folder the export was unpacked into, or its COCO .json file, and name the format if it is not detected.</source>
      <translation>请选择导出内容解压后的文件夹或它的 COCO .json 文件；若未能识别格式，请指定格式。</translation>
    </message>
    <message>
      <source>Pick weights from your runs, or confirm that you trust this file (--trust-weights).</source>
      <translation>请从你的训练中选择权重，或确认你信任这个文件（--trust-weights）。</translation>
    </message>
    <message>
      <source>Pick yolov5n/s/m/l/x or a model file.</source>
      <translation>请选择 yolov5n/s/m/l/x 或一个模型文件。</translation>
    </message>
    <message>
      <source>Pillow cannot read this image ('{reason}'). yolov5 drops it as corrupt.</source>
      <translation>Pillow 无法读取这张图片（'{reason}'）。yolov5 会把它当作损坏图片丢弃。</translation>
    </message>
    <message>
      <source>Port {port} is already in use on this machine (Address already in use).</source>
      <translation>本机端口 {port} 已被占用（'Address already in use'）。</translation>
    </message>
    <message>
      <source>PowerShell's execution policy is {policy}: a .ps1 script double-clicked or run directly is refused. install.bat runs the installer with '-ExecutionPolicy Bypass' for this one process and changes nothing. To run scripts yourself: Set-ExecutionPolicy -Scope CurrentUser RemoteSigned</source>
      <translation>PowerShell 的执行策略为 {policy}：双击或直接运行 .ps1 脚本会被拒绝。install.bat 只对这一个进程使用 '-ExecutionPolicy Bypass' 运行安装程序，不会改变任何设置。如需自己运行脚本：Set-ExecutionPolicy -Scope CurrentUser RemoteSigned</translation>
    </message>
    <message>
      <source>Precision</source>
      <translation>精度</translation>
    </message>
    <message>
      <source>Precision (95 % interval)</source>
      <translation>精确率（95 % 区间）</translation>
    </message>
    <message>
      <source>Precision and recall per class at this confidence</source>
      <translation>此置信度下各类别的精确率和召回率</translation>
    </message>
    <message>
      <source>Predicted: {rate:.0f} images/s, {epoch} per epoch, {total} in all</source>
      <translation>预计：{rate:.0f} 张/秒，每轮 {epoch}，共 {total}</translation>
    </message>
    <message>
      <source>Predicting with {backend} at {imgsz}: {source}</source>
      <translation>使用 {backend}、尺寸 {imgsz} 预测：{source}</translation>
    </message>
    <message>
      <source>Predictions of {weights} on the {split} split (images it did not train on). Training images need held-out (k-fold) predictions: the model learned their labels.</source>
      <translation>{weights} 在 {split} 划分上的预测（它没训练过的图片）。训练图片需要留出（k 折）预测：模型学过它们的标注。</translation>
    </message>
    <message>
      <source>Prepared {written} of {n} images at {imgsz} px ({resumed} kept from an earlier run).</source>
      <translation>已准备 {written}/{n} 张图片，{imgsz} 像素（{resumed} 张沿用之前的结果）。</translation>
    </message>
    <message>
      <source>Preparing a copy of {source} resized to {imgsz} px (resumable; Ctrl+C keeps what is done)…</source>
      <translation>正在准备 {source} 缩放到 {imgsz} 像素的副本（可续做；Ctrl+C 会保留已完成的部分）…</translation>
    </message>
    <message>
      <source>Preparing {done}/{total} images</source>
      <translation>正在准备 {done}/{total} 张图片</translation>
    </message>
    <message>
      <source>Preparing {done}/{total} images{when}</source>
      <translation>正在准备 {done}/{total} 张图片{when}</translation>
    </message>
    <message>
      <source>Processes per machine</source>
      <translation>每台机器的进程数</translation>
    </message>
    <message>
      <source>Processes that load and augment images alongside training, per training process (with several GPUs each GPU's process starts this many). Too few and the GPU waits for data; each costs a CPU core, RAM, and shared memory in Docker.</source>
      <translation>在训练的同时加载并增强图片的进程数，按每个训练进程计（多块 GPU 时，每块 GPU 的进程各启动这么多个）。太少则 GPU 要等数据；每个进程占用一个 CPU 核心、内存，以及 Docker 中的共享内存。</translation>
    </message>
    <message>
      <source>Put the dataset back where the run trained from it.</source>
      <translation>请把数据集放回该训练当时使用的位置。</translation>
    </message>
    <message>
      <source>Put the dataset back, or evaluate with yolostudio evaluate {run} --data DATA.yaml.</source>
      <translation>把数据集放回原处，或用 yolostudio evaluate {run} --data DATA.yaml 评估。</translation>
    </message>
    <message>
      <source>Put them in HTTPS_PROXY (https://user:password@proxy:port), or download the file elsewhere and use Import.</source>
      <translation>请把它们写进 HTTPS_PROXY（https://user:password@proxy:port），或在别处下载文件后用“导入”。</translation>
    </message>
    <message>
      <source>PySide6's X11 plugin (libqxcb.so) was not found</source>
      <translation>未找到 PySide6 的 X11 插件（libqxcb.so）</translation>
    </message>
    <message>
      <source>PyTorch</source>
      <translation>PyTorch</translation>
    </message>
    <message>
      <source>PyTorch ({index}) — the largest download</source>
      <translation>PyTorch（{index}）— 最大的下载</translation>
    </message>
    <message>
      <source>PyTorch CUDA build</source>
      <translation>PyTorch CUDA 版本</translation>
    </message>
    <message>
      <source>PyTorch cannot use it</source>
      <translation>PyTorch 无法使用它</translation>
    </message>
    <message>
      <source>PyTorch cannot use the GPU</source>
      <translation>PyTorch 无法使用 GPU</translation>
    </message>
    <message>
      <source>PyTorch cannot use this Jetson's GPU</source>
      <translation>PyTorch 无法使用这台 Jetson 的 GPU</translation>
    </message>
    <message>
      <source>PyTorch drives NVIDIA GPUs through CUDA {cuda}</source>
      <translation>PyTorch 通过 CUDA {cuda} 使用 NVIDIA GPU</translation>
    </message>
    <message>
      <source>PyTorch installed</source>
      <translation>PyTorch 已安装</translation>
    </message>
    <message>
      <source>PyTorch is a CPU-only build, but this machine has an NVIDIA GPU</source>
      <translation>PyTorch 是纯 CPU 版本，但这台机器有 NVIDIA GPU</translation>
    </message>
    <message>
      <source>PyTorch is a CUDA build, but CUDA does not start on this Jetson: a build for another JetPack release, or one not made for Jetson, cannot use its GPU.</source>
      <translation>PyTorch 是 CUDA 版，但 CUDA 无法在这台 Jetson 上启动：为其他 JetPack 版本构建的、或不是为 Jetson 构建的 PyTorch 无法使用它的 GPU。</translation>
    </message>
    <message>
      <source>PyTorch is a ROCm build (HIP {hip}) for AMD GPUs: NVIDIA's driver and NVML do not apply</source>
      <translation>PyTorch 是面向 AMD 显卡的 ROCm 版（HIP {hip}）：NVIDIA 驱动和 NVML 的检查不适用</translation>
    </message>
    <message>
      <source>PyTorch is installed but cannot load</source>
      <translation>PyTorch 已安装但无法加载</translation>
    </message>
    <message>
      <source>PyTorch is installed but does not load</source>
      <translation>PyTorch 已安装但无法加载</translation>
    </message>
    <message>
      <source>PyTorch is not a CUDA build</source>
      <translation>PyTorch 不是 CUDA 版本</translation>
    </message>
    <message>
      <source>PyTorch is not installed</source>
      <translation>未安装 PyTorch</translation>
    </message>
    <message>
      <source>PyTorch ms per image</source>
      <translation>PyTorch 每张图片毫秒数</translation>
    </message>
    <message>
      <source>PyTorch on this Jetson is a CPU-only build</source>
      <translation>这台 Jetson 上的 PyTorch 是仅支持 CPU 的版本</translation>
    </message>
    <message>
      <source>PyTorch publishes CUDA wheels for Linux and Windows only; on {os} the CPU build is installed.</source>
      <translation>PyTorch 只为 Linux 和 Windows 提供 CUDA 安装包；在 {os} 上安装 CPU 版本。</translation>
    </message>
    <message>
      <source>PyTorch uses the Jetson's GPU through CUDA. NVIDIA's desktop checks (NVML, nvidia-smi, the desktop driver and its CUDA wheels) do not apply here and are skipped; watch the GPU with tegrastats or jtop.</source>
      <translation>PyTorch 通过 CUDA 使用 Jetson 的 GPU。NVIDIA 台式机的检查（NVML、nvidia-smi、台式机驱动及其 CUDA 安装包）在这里不适用，已跳过；可用 tegrastats 或 jtop 查看 GPU 状态。</translation>
    </message>
    <message>
      <source>PyTorch was replaced. Checking this machine again…</source>
      <translation>PyTorch 已替换。正在重新检查这台机器…</translation>
    </message>
    <message>
      <source>PyTorch {found} is installed, but the plan chose the {index} build.</source>
      <translation>已安装 PyTorch {found}，但计划选择的是 {index} 版本。</translation>
    </message>
    <message>
      <source>PyTorch {release} has no build that runs on driver {driver} for {archs}: {reasons}. The fix is the driver, not PyTorch: update it to {needed} or newer.</source>
      <translation>PyTorch {release} 没有能在驱动 {driver} 上运行且支持 {archs} 的构建：{reasons}。要修的是驱动而不是 PyTorch：请更新到 {needed} 或更新版本。</translation>
    </message>
    <message>
      <source>PyTorch {release} publishes wheels for Python {range} only; on Python {version} no PyTorch wheel exists, so 'pip install torch' cannot succeed. The app's environment needs a supported Python first.</source>
      <translation>PyTorch {release} 只提供 Python {range} 的安装包；Python {version} 没有任何 PyTorch 安装包，所以 'pip install torch' 不可能成功。应用的环境首先需要一个受支持的 Python。</translation>
    </message>
    <message>
      <source>PyTorch {version} cannot use the GPU yet (a reboot after a driver update is often needed); open the Environment page or run 'yolostudio doctor' to see why.</source>
      <translation>PyTorch {version} 还不能使用 GPU（驱动更新后通常需要重启）；打开环境页面或运行 'yolostudio doctor' 查看原因。</translation>
    </message>
    <message>
      <source>PyTorch {version} is already the build this machine needs ({tag}); reinstalling it would not change anything. See the finding's details.</source>
      <translation>PyTorch {version} 已经是这台机器需要的版本（{tag}）；重新安装不会有任何改变。详见该问题的说明。</translation>
    </message>
    <message>
      <source>PyTorch {version} is installed but cannot load</source>
      <translation>已安装 PyTorch {version}，但无法加载</translation>
    </message>
    <message>
      <source>PyTorch {version}, a CPU-only build</source>
      <translation>PyTorch {version}，仅 CPU 版本</translation>
    </message>
    <message>
      <source>PyTorch {version}, built for CUDA {cuda}</source>
      <translation>PyTorch {version}，为 CUDA {cuda} 构建</translation>
    </message>
    <message>
      <source>PyTorch {version}{took}</source>
      <translation>PyTorch {version}{took}</translation>
    </message>
    <message>
      <source>PyTorch's ROCm build sees no AMD GPU</source>
      <translation>ROCm 版 PyTorch 看不到 AMD 显卡</translation>
    </message>
    <message>
      <source>PyTorch's files are damaged or incomplete (an interrupted install?); a forced reinstall of the build replaces them.</source>
      <translation>PyTorch 的文件已损坏或不完整（安装被中断？）；强制重新安装该构建会替换它们。</translation>
    </message>
    <message>
      <source>Python</source>
      <translation>Python</translation>
    </message>
    <message>
      <source>Python environment {venv}</source>
      <translation>Python 环境 {venv}</translation>
    </message>
    <message>
      <source>Python version</source>
      <translation>Python 版本</translation>
    </message>
    <message>
      <source>Python {version}</source>
      <translation>Python {version}</translation>
    </message>
    <message>
      <source>Python {version} is newer than the versions PyTorch {torch} publishes wheels for ({low} to {high}): no PyTorch wheel exists for it. Install Python {high} and run the installer with it (PYTHON=python{high}).</source>
      <translation>Python {version} 比 PyTorch {torch} 提供安装包的版本（{low} 到 {high}）更新：没有适用于它的 PyTorch 安装包。请安装 Python {high} 并用它运行安装程序（PYTHON=python{high}）。</translation>
    </message>
    <message>
      <source>Python {version} is newer than the versions PyTorch {torch} publishes wheels for ({low} to {high}): no PyTorch wheel exists for it. Install Python {high} from python.org, then run install.bat again with it: set PYTHON=C:\path\to\python.exe</source>
      <translation>Python {version} 比 PyTorch {torch} 提供安装包的版本（{low} 到 {high}）更新：没有适用于它的 PyTorch 安装包。请从 python.org 安装 Python {high}，然后用它再次运行 install.bat：set PYTHON=C:\path\to\python.exe</translation>
    </message>
    <message>
      <source>Python {version} is not supported</source>
      <translation>不支持 Python {version}</translation>
    </message>
    <message>
      <source>Python {version} is too old: YOLO Studio needs Python {low} or newer (up to {high}).</source>
      <translation>Python {version} 太旧：YOLO Studio 需要 Python {low} 或更新版本（最高 {high}）。</translation>
    </message>
    <message>
      <source>Queue '{name}' has no image '{id}'.</source>
      <translation>队列“{name}”中没有图片“{id}”。</translation>
    </message>
    <message>
      <source>Queue '{name}' holds proposals of run {run} for {folder}.</source>
      <translation>审核队列“{name}”存放的是训练 {run} 对 {folder} 的建议标注。</translation>
    </message>
    <message>
      <source>Queue '{name}' is being filled by another auto-label (pid {pid}).</source>
      <translation>队列“{name}”正由另一个自动标注任务填充（pid {pid}）。</translation>
    </message>
    <message>
      <source>Queue {name}: {n} image to predict with {weights}</source>
      <translation>队列 {name}：用 {weights} 预测 {n} 张图片</translation>
    </message>
    <message>
      <source>Queue {name}: {n} images to predict with {weights}</source>
      <translation>队列 {name}：用 {weights} 预测 {n} 张图片</translation>
    </message>
    <message>
      <source>RAM (decode once, keep in memory)</source>
      <translation>内存（解码一次，保存在内存中）</translation>
    </message>
    <message>
      <source>RAM cache</source>
      <translation>内存缓存</translation>
    </message>
    <message>
      <source>RAM for the data-loader workers</source>
      <translation>数据加载进程所需内存</translation>
    </message>
    <message>
      <source>RAM for the dataset cache</source>
      <translation>数据集缓存所需内存</translation>
    </message>
    <message>
      <source>REMOTE FOLDER</source>
      <translation>远程文件夹</translation>
    </message>
    <message>
      <source>Random reads of image files ran at {speed:.0f} MB/s ({files:.0f} files/s); a fast GPU consumes images faster than that, so it would wait for the disk.</source>
      <translation>随机读取图片文件的速度为 {speed:.0f} MB/s（{files:.0f} 个文件/秒）；快速的 GPU 消耗图片的速度比这更快，所以它会等待磁盘。</translation>
    </message>
    <message>
      <source>Random seed for shuffling and augmentation: the same seed repeats a run.</source>
      <translation>打乱和数据增强使用的随机种子：相同的种子可以重复一次训练。</translation>
    </message>
    <message>
      <source>Rank {rank} on node {node} ({host}) waited for its data {share} of the time, and every other rank waits for it at each step.</source>
      <translation>节点 {node}（{host}）上的进程 {rank} 有 {share} 的时间在等待数据，而其他每个进程在每一步都要等它。</translation>
    </message>
    <message>
      <source>Ray Tune is not installed ({names} missing).</source>
      <translation>未安装 Ray Tune（缺少 {names}）。</translation>
    </message>
    <message>
      <source>Ray Tune is not installed: {reason}</source>
      <translation>未安装 Ray Tune：{reason}</translation>
    </message>
    <message>
      <source>Ray could not join the cluster at {address}: {reason}</source>
      <translation>Ray 无法加入 {address} 上的集群：{reason}</translation>
    </message>
    <message>
      <source>Re-split so that each class has the same share in train and val (yolostudio dataset prepare).</source>
      <translation>重新划分，使每个类别在 train 和 val 中占比相同（yolostudio dataset prepare）。</translation>
    </message>
    <message>
      <source>Read at confidence {conf} and IoU {iou} (yolov5's confusion matrix, not the mAP thresholds): rows are what the model predicted, columns what the labels say.</source>
      <translation>按置信度 {conf}、IoU {iou} 统计（yolov5 的混淆矩阵，不是 mAP 的阈值）：行是模型的预测，列是标注。</translation>
    </message>
    <message>
      <source>Reading</source>
      <translation>正在读取</translation>
    </message>
    <message>
      <source>Reading the GPUs through NVML</source>
      <translation>正在通过 NVML 读取 GPU</translation>
    </message>
    <message>
      <source>Reading the system…</source>
      <translation>正在读取系统信息…</translation>
    </message>
    <message>
      <source>Ready to train on {gpu}{memory} with CUDA {cuda}</source>
      <translation>可以在 {gpu}{memory} 上用 CUDA {cuda} 训练</translation>
    </message>
    <message>
      <source>Ready to train on {gpu}{memory} with ROCm (HIP {hip})</source>
      <translation>可以在 {gpu}{memory} 上通过 ROCm（HIP {hip}）训练</translation>
    </message>
    <message>
      <source>Reboot (a driver update needs it); if it persists: {cmd}</source>
      <translation>重启（驱动更新后需要重启）；如果问题仍在：{cmd}</translation>
    </message>
    <message>
      <source>Reboot (or, with nothing running on it: sudo nvidia-smi -r -i {index}); watch the next runs with 'nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER'.</source>
      <translation>重启（或在它上面没有程序运行时：sudo nvidia-smi -r -i {index}）；之后的训练用 'nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER' 观察。</translation>
    </message>
    <message>
      <source>Reboot the machine; if it happens again, check power and cooling, and 'sudo dmesg | grep -i xid'.</source>
      <translation>重启机器；如果再次发生，请检查电源和散热，并运行 'sudo dmesg | grep -i xid'。</translation>
    </message>
    <message>
      <source>Reboot; if it persists, reinstall the wheel: {cmd}</source>
      <translation>重启；如果问题仍在，请重新安装：{cmd}</translation>
    </message>
    <message>
      <source>Recall (95 % interval)</source>
      <translation>召回率（95 % 区间）</translation>
    </message>
    <message>
      <source>Recall {target} is not reached at any stored confidence: the lowest one is used.</source>
      <translation>在已存的任何置信度下都达不到召回率 {target}：使用最低的置信度。</translation>
    </message>
    <message>
      <source>Receiving on {name} failed: {reason}</source>
      <translation>{name} 接收失败：{reason}</translation>
    </message>
    <message>
      <source>Rectangular batches</source>
      <translation>矩形批次</translation>
    </message>
    <message>
      <source>Remove it and get it again: yolostudio weights remove {name} &amp;&amp; {command}</source>
      <translation>请删除并重新获取：yolostudio weights remove {name} &amp;&amp; {command}</translation>
    </message>
    <message>
      <source>Remove it first (yolostudio weights remove {name}), or import under another name (--name).</source>
      <translation>请先删除它（yolostudio weights remove {name}），或用另一个名称导入（--name）。</translation>
    </message>
    <message>
      <source>Remove the folder {folder}: the next yolostudio evaluate makes that evaluation again.</source>
      <translation>请删除文件夹 {folder}：下一次 yolostudio evaluate 会重新生成这次评估。</translation>
    </message>
    <message>
      <source>Remove {name} from {list}</source>
      <translation>从 {list} 中删除 {name}</translation>
    </message>
    <message>
      <source>Remove {name} from {list} (backup kept as {list}.bak)</source>
      <translation>从 {list} 中移除 {name}（备份保存为 {list}.bak）</translation>
    </message>
    <message>
      <source>Removed {name}.</source>
      <translation>已删除 {name}。</translation>
    </message>
    <message>
      <source>Rendezvous</source>
      <translation>汇合点</translation>
    </message>
    <message>
      <source>Rendezvous {value!r} is not HOST:PORT.</source>
      <translation>汇合点 {value!r} 不是 主机:端口 的格式。</translation>
    </message>
    <message>
      <source>Repair: {findings}</source>
      <translation>修复：{findings}</translation>
    </message>
    <message>
      <source>Reseat the card or move it to a full x16 slot (no riser or x4 slot); verify with 'nvidia-smi -q -d PCIE' under load.</source>
      <translation>重新插好显卡，或把它移到完整的 x16 插槽（不用转接线或 x4 插槽）；在负载下用 'nvidia-smi -q -d PCIE' 验证。</translation>
    </message>
    <message>
      <source>Resolving {package}</source>
      <translation>正在解析 {package}</translation>
    </message>
    <message>
      <source>Restart Windows (then, under WSL, reopen it): the updated driver is loaded at start.</source>
      <translation>重启 Windows（使用 WSL 的话随后重新打开它）：更新后的驱动会在启动时加载。</translation>
    </message>
    <message>
      <source>Restart Windows (under WSL: 'wsl --shutdown' in Windows, then reopen WSL); a PyTorch reinstall cannot help.</source>
      <translation>重启 Windows（使用 WSL 时：在 Windows 中运行 'wsl --shutdown'，再重新打开 WSL）；重新安装 PyTorch 无济于事。</translation>
    </message>
    <message>
      <source>Review it: yolostudio label queue {name} (or the Label page); then yolostudio label accept {name} --into DATA.yaml</source>
      <translation>请审核：yolostudio label queue {name}（或在标注页面）；然后 yolostudio label accept {name} --into DATA.yaml</translation>
    </message>
    <message>
      <source>Review them in the Errors browser (likeliest first) and fix the labels.</source>
      <translation>在错误浏览器中逐一查看（最可能的在前）并修正标注。</translation>
    </message>
    <message>
      <source>Rewrite {name} (backup kept as {name}.bak)</source>
      <translation>重写 {name}（备份保存为 {name}.bak）</translation>
    </message>
    <message>
      <source>Run 'yolostudio doctor' in a terminal to see the probe's own messages.</source>
      <translation>在终端中运行 'yolostudio doctor' 查看探测进程自己的消息。</translation>
    </message>
    <message>
      <source>Run id</source>
      <translation>运行 ID</translation>
    </message>
    <message>
      <source>Run it there to see more: ssh {dest} bash {folder}/installer/setup_env.sh</source>
      <translation>在那里运行以查看更多信息：ssh {dest} bash {folder}/installer/setup_env.sh</translation>
    </message>
    <message>
      <source>Run name</source>
      <translation>训练名称</translation>
    </message>
    <message>
      <source>Run name {name!r} is not a valid folder name: {reason}.</source>
      <translation>训练名称 {name!r} 不是有效的文件夹名：{reason}。</translation>
    </message>
    <message>
      <source>Run nvidia-smi on the host to see who uses it, and train when it is free.</source>
      <translation>在宿主机上运行 nvidia-smi 查看谁在使用它，等它空闲时再训练。</translation>
    </message>
    <message>
      <source>Run nvidia-smi on the host to see who uses it; {move}</source>
      <translation>在宿主机上运行 nvidia-smi 查看谁在使用它；{move}</translation>
    </message>
    <message>
      <source>Run nvidia-smi to see the driver's own error.</source>
      <translation>运行 nvidia-smi 查看驱动自己的错误信息。</translation>
    </message>
    <message>
      <source>Run nvidia-smi: if it hangs or shows 'ERR!', reboot the machine; if it persists, check 'sudo dmesg | grep -i xid' for the GPU error.</source>
      <translation>运行 nvidia-smi：如果它卡住或显示 'ERR!'，请重启机器；如果问题仍在，用 'sudo dmesg | grep -i xid' 查看 GPU 错误。</translation>
    </message>
    <message>
      <source>Run the command in a terminal to see why.</source>
      <translation>在终端中运行该命令查看原因。</translation>
    </message>
    <message>
      <source>Run the search on a Ray cluster you start yourself: ray start --head, then yolostudio tune … --ray-address HOST:6379 (or set RAY_ADDRESS).</source>
      <translation>请在你自己启动的 Ray 集群上运行搜索：ray start --head，然后 yolostudio tune … --ray-address HOST:6379（或设置 RAY_ADDRESS）。</translation>
    </message>
    <message>
      <source>Run yolov5's augmentation (mosaic, perspective, HSV, flips, mixup) on whole batches where the model trains, so the loader's workers only decode: about a third of their CPU time per image, for a fast GPU fed by few cores. 'auto' lets the wizard turn it on when its measured loader supply is below the measured training speed. copy_paste is not supported.</source>
      <translation>在模型训练所在的设备上，对整个批次运行 yolov5 的数据增强（马赛克、透视、HSV、翻转、mixup），加载器的工作进程只需解码：每张图片约只需原来三分之一的 CPU 时间，适合少量 CPU 核心供给快速 GPU 的情况。'auto' 让向导在测得的加载器供给低于测得的训练速度时开启它。不支持 copy_paste。</translation>
    </message>
    <message>
      <source>Run {name} has no best.pt to fine-tune from.</source>
      <translation>训练 {name} 没有可用于微调的 best.pt。</translation>
    </message>
    <message>
      <source>Run {name} has no best.pt to label with.</source>
      <translation>训练 {name} 没有可用于标注的 best.pt。</translation>
    </message>
    <message>
      <source>Run {name} is being written by another worker (pid {pid}); one run folder has one worker at a time.</source>
      <translation>训练 {name} 正被另一个工作进程（pid {pid}）写入；一个训练文件夹同一时间只能有一个工作进程。</translation>
    </message>
    <message>
      <source>Run {name} is not running.</source>
      <translation>训练 {name} 没有在进行。</translation>
    </message>
    <message>
      <source>Run {name}: {path}</source>
      <translation>训练 {name}：{path}</translation>
    </message>
    <message>
      <source>Run {run} has no evaluation on its val split yet: the report's figures come from it.</source>
      <translation>训练 {run} 还没有在验证集上的评估：报告的数字来自评估。</translation>
    </message>
    <message>
      <source>Run {run} has no measured epoch, so the time cannot be estimated: {k} trainings of {epochs} epochs each.</source>
      <translation>训练 {run} 没有测得的轮次，因此无法估计时间：{k} 次训练，每次 {epochs} 个轮次。</translation>
    </message>
    <message>
      <source>Run {run} has no readable {file}: its settings are not known.</source>
      <translation>训练 {run} 没有可读的 {file}：不知道它的设置。</translation>
    </message>
    <message>
      <source>Run {run} has no stored evaluation yet: yolostudio evaluate {run}</source>
      <translation>训练 {run} 还没有已保存的评估：yolostudio evaluate {run}</translation>
    </message>
    <message>
      <source>Run {run} has no weights yet (weights/best.pt or weights/last.pt).</source>
      <translation>训练 {run} 还没有权重（weights/best.pt 或 weights/last.pt）。</translation>
    </message>
    <message>
      <source>Run {run} on {name}: it keeps training if this terminal or the link goes. 'yolostudio attach {run} --machine {name}' follows it again; 'yolostudio stop {run} --machine {name}' stops it.</source>
      <translation>{name} 上的训练 {run}：即使关闭这个终端或连接断开，它也会继续训练。'yolostudio attach {run} --machine {name}' 可重新跟踪它；'yolostudio stop {run} --machine {name}' 可停止它。</translation>
    </message>
    <message>
      <source>Running</source>
      <translation>进行中</translation>
    </message>
    <message>
      <source>Running the doctor on {name} ({dest}) …</source>
      <translation>正在 {name}（{dest}）上运行环境检查 …</translation>
    </message>
    <message>
      <source>Running the installer on {name} (first time: a few minutes) …</source>
      <translation>正在 {name} 上运行安装程序（首次需要几分钟）…</translation>
    </message>
    <message>
      <source>Running {format} on {n} images…</source>
      <translation>正在用 {format} 处理 {n} 张图片…</translation>
    </message>
    <message>
      <source>Running {format} on {n} image…</source>
      <translation>正在用 {format} 处理 {n} 张图片…</translation>
    </message>
    <message>
      <source>SGD</source>
      <translation>SGD</translation>
    </message>
    <message>
      <source>SGD (yolov5's default) generalises well from scratch; Adam and AdamW converge faster on small or fine-tuning sets but may need a lower learning rate.</source>
      <translation>SGD（yolov5 的默认值）从头训练时泛化好；Adam 和 AdamW 在小数据集或微调时收敛更快，但可能需要更低的学习率。</translation>
    </message>
    <message>
      <source>SIZE</source>
      <translation>大小</translation>
    </message>
    <message>
      <source>SKIP</source>
      <translation>跳过</translation>
    </message>
    <message>
      <source>SSH</source>
      <translation>SSH</translation>
    </message>
    <message>
      <source>SSH destination {ssh!r}: give a host, user@host or an alias of your ssh config.</source>
      <translation>SSH 目标 {ssh!r}：请给出主机、user@host 或 ssh 配置中的别名。</translation>
    </message>
    <message>
      <source>STATE</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Same CUDA major version, so it runs (minor-version compatibility), but kernels that need PTX JIT compilation may be unavailable.</source>
      <translation>CUDA 主版本相同，所以能运行（次版本兼容），但需要 PTX 即时编译的内核可能不可用。</translation>
    </message>
    <message>
      <source>Save every N epochs</source>
      <translation>每 N 轮保存一次</translation>
    </message>
    <message>
      <source>Save the options again from the wizard or the Train page.</source>
      <translation>请在向导或训练页面重新保存选项。</translation>
    </message>
    <message>
      <source>Saving checkpoints…</source>
      <translation>正在保存检查点…</translation>
    </message>
    <message>
      <source>Search {name} resumes with the settings it started with; what was given differs and is not used: {changes}.</source>
      <translation>搜索 {name} 以它开始时的设置继续；给出的设置与之不同，不会使用：{changes}。</translation>
    </message>
    <message>
      <source>Search {name}: {path}; searching {names}; {slots} trials side by side.</source>
      <translation>搜索 {name}：{path}；搜索 {names}；同时运行 {slots} 个试验。</translation>
    </message>
    <message>
      <source>Searching the splits' folders: {n:,} so far</source>
      <translation>正在搜索各划分的文件夹：已搜索 {n:,} 个</translation>
    </message>
    <message>
      <source>See the list with: yolostudio weights list</source>
      <translation>查看列表：yolostudio weights list</translation>
    </message>
    <message>
      <source>See the worker log for the exporter's messages.</source>
      <translation>导出器的消息请查看工作进程日志。</translation>
    </message>
    <message>
      <source>See: yolostudio weights list</source>
      <translation>参见：yolostudio weights list</translation>
    </message>
    <message>
      <source>Seed</source>
      <translation>随机种子</translation>
    </message>
    <message>
      <source>Sending YOLO Studio ({root}) to {name}:{folder} …</source>
      <translation>正在把 YOLO Studio（{root}）发送到 {name}:{folder} …</translation>
    </message>
    <message>
      <source>Sending cancelled; nothing was started.</source>
      <translation>发送已取消；没有开始任何训练。</translation>
    </message>
    <message>
      <source>Sending the dataset to {name}: {sent} of {total} …</source>
      <translation>正在把数据集发送到 {name}：{sent} / {total} …</translation>
    </message>
    <message>
      <source>Sending to {name} failed: {reason}</source>
      <translation>发送到 {name} 失败：{reason}</translation>
    </message>
    <message>
      <source>Sending {n} wheels to {name}:{folder} …</source>
      <translation>正在把 {n} 个 wheel 发送到 {name}:{folder} …</translation>
    </message>
    <message>
      <source>Sending {sent} of {total} …</source>
      <translation>正在发送 {sent} / {total} …</translation>
    </message>
    <message>
      <source>Sent. To install, run there: {command}</source>
      <translation>已发送。要安装，请在那里运行：{command}</translation>
    </message>
    <message>
      <source>Set a batch size that is a multiple of {world} (the number of processes).</source>
      <translation>请设置为 {world}（进程数）的整数倍的批大小。</translation>
    </message>
    <message>
      <source>Several GPUs</source>
      <translation>多块 GPU</translation>
    </message>
    <message>
      <source>Several machines need a meeting point.</source>
      <translation>多台机器需要一个汇合点。</translation>
    </message>
    <message>
      <source>Shared memory (/dev/shm)</source>
      <translation>共享内存（/dev/shm）</translation>
    </message>
    <message>
      <source>Shortcuts</source>
      <translation>快捷方式</translation>
    </message>
    <message>
      <source>Signature</source>
      <translation>签名</translation>
    </message>
    <message>
      <source>Simplifying applies to ONNX and TensorRT exports only.</source>
      <translation>简化只适用于 ONNX 和 TensorRT 导出。</translation>
    </message>
    <message>
      <source>Simplifying needs the 'onnxsim' package, which is not installed.</source>
      <translation>简化需要 'onnxsim' 包，但它没有安装。</translation>
    </message>
    <message>
      <source>Single class</source>
      <translation>单类别</translation>
    </message>
    <message>
      <source>Skip validation after each epoch: faster epochs, but mAP, best.pt and early stopping then see only the final epoch.</source>
      <translation>每轮结束后不验证：每轮更快，但 mAP、best.pt 和提前停止只能看到最后一轮。</translation>
    </message>
    <message>
      <source>Sliced into {size}-pixel tiles ({overlap:.0%} overlap): {tiles} tiles per image, {ms:.0f} ms per image against {whole:.0f} ms for the whole image alone.</source>
      <translation>切成 {size} 像素的切片（重叠 {overlap:.0%}）：每张图片 {tiles} 个切片，每张图片 {ms:.0f} 毫秒，仅整图推理为 {whole:.0f} 毫秒。</translation>
    </message>
    <message>
      <source>Slow disk under the {role}: {files:.0f} images/s</source>
      <translation>{role}所在的磁盘很慢：{files:.0f} 张图片/秒</translation>
    </message>
    <message>
      <source>Small P6: 1280 px training for small objects in large images on one GPU.</source>
      <translation>小型 P6：1280 像素训练，在单块 GPU 上检测大图中的小目标。</translation>
    </message>
    <message>
      <source>Small objects: at a smaller size a tenth of your boxes would shrink below {px} px.</source>
      <translation>小目标：尺寸更小时，你的框中有十分之一会缩到 {px} 像素以下。</translation>
    </message>
    <message>
      <source>Small: the usual first choice for a custom dataset on one GPU; fast to fine-tune.</source>
      <translation>小型：在单块 GPU 上训练自定义数据集的常用首选；微调很快。</translation>
    </message>
    <message>
      <source>Soften the class targets by this amount (0.1 is typical) against over-confident classes; 0 is off.</source>
      <translation>按这个量软化类别目标（通常为 0.1），防止类别预测过于自信；0 表示关闭。</translation>
    </message>
    <message>
      <source>Someone (or a power-saving profile) set a lower power limit, so the GPU reaches its cap, and lowers its clocks, sooner than it was built to.</source>
      <translation>有人（或某个节能配置）设置了更低的功耗上限，所以 GPU 比设计时更早达到上限并降频。</translation>
    </message>
    <message>
      <source>Something it waits for (often the GPU driver) hangs; what it reported before is kept.</source>
      <translation>它在等待的某个东西（通常是 GPU 驱动）卡住了；之前报告的内容已保留。</translation>
    </message>
    <message>
      <source>Start a new run; to keep what it learned, train from its best.pt if that is whole.</source>
      <translation>请开始新的训练；若想保留已学到的内容，可在 best.pt 完好时从它开始训练。</translation>
    </message>
    <message>
      <source>Start a new search instead.</source>
      <translation>请改为开始一次新的搜索。</translation>
    </message>
    <message>
      <source>Start from {weights}.</source>
      <translation>从 {weights} 开始。</translation>
    </message>
    <message>
      <source>Start machine 0 first, and check the address and that the port is open between the machines (firewall).</source>
      <translation>请先启动第 0 台机器，并检查地址以及机器之间该端口是否开放（防火墙）。</translation>
    </message>
    <message>
      <source>Start the cluster first (ray start --head --port=6379 on its first machine), check the address and that no firewall is in the way, or leave --ray-address and RAY_ADDRESS unset for a search on this computer only.</source>
      <translation>请先启动集群（在第一台机器上运行 ray start --head --port=6379），检查地址以及是否有防火墙阻挡；或者不设置 --ray-address 和 RAY_ADDRESS，只在本机上搜索。</translation>
    </message>
    <message>
      <source>Start the queue again with 'yolostudio label auto'.</source>
      <translation>用 'yolostudio label auto' 重新建立队列。</translation>
    </message>
    <message>
      <source>Start weights</source>
      <translation>起始权重</translation>
    </message>
    <message>
      <source>Starting the trainer…</source>
      <translation>正在启动训练器…</translation>
    </message>
    <message>
      <source>Starting the training process…</source>
      <translation>正在启动训练进程…</translation>
    </message>
    <message>
      <source>Still improving at the last epoch ({best} of {epochs})</source>
      <translation>最后一轮仍在提升（第 {best} 轮，共 {epochs} 轮）</translation>
    </message>
    <message>
      <source>Stop early when the best fitness has not improved for this many epochs, saving the time of a plateau; 0 never stops early.</source>
      <translation>最佳适应度连续这么多轮没有提升就提前停止，省去平台期的时间；0 表示从不提前停止。</translation>
    </message>
    <message>
      <source>Stopped</source>
      <translation>已停止</translation>
    </message>
    <message>
      <source>Stopped after {done} of {total} images; run it again to resume.</source>
      <translation>已在 {done}/{total} 张图片后停止；再次运行即可继续。</translation>
    </message>
    <message>
      <source>Stopped after {n} image or frame.</source>
      <translation>已停止，处理了 {n} 张图片或帧。</translation>
    </message>
    <message>
      <source>Stopped after {n} images or frames.</source>
      <translation>已停止，处理了 {n} 张图片或帧。</translation>
    </message>
    <message>
      <source>Stopped after {time}; resume with 'yolostudio resume RUN'.</source>
      <translation>已在 {time} 后停止；用 'yolostudio resume RUN' 继续训练。</translation>
    </message>
    <message>
      <source>Stopped before anything was replaced; PyTorch is unchanged.</source>
      <translation>在替换任何文件之前已停止；PyTorch 未改变。</translation>
    </message>
    <message>
      <source>Stopped; the images finished so far are kept and the next run resumes.</source>
      <translation>已停止；已完成的图片会保留，下次运行会接着做。</translation>
    </message>
    <message>
      <source>Stopped; the images prepared so far are kept and the next run resumes.</source>
      <translation>已停止；已准备好的图片会保留，下次运行会接着做。</translation>
    </message>
    <message>
      <source>Stopped; the same command predicts the {n} image left.</source>
      <translation>已停止；再次运行同一命令会预测剩下的 {n} 张图片。</translation>
    </message>
    <message>
      <source>Stopped; the same command predicts the {n} images left.</source>
      <translation>已停止；再次运行同一命令会预测剩下的 {n} 张图片。</translation>
    </message>
    <message>
      <source>Stopping gracefully (a training run saves a checkpoint after the current batch)… Ctrl+C again kills the worker.</source>
      <translation>正在平稳停止（训练会在当前批次结束后保存检查点）… 再按一次 Ctrl+C 将强制结束工作进程。</translation>
    </message>
    <message>
      <source>Stopping the worker (signal {signal})…</source>
      <translation>正在停止工作进程（信号 {signal}）…</translation>
    </message>
    <message>
      <source>Stopping: finishing the current batch and saving a checkpoint…</source>
      <translation>正在停止：完成当前批次并保存检查点…</translation>
    </message>
    <message>
      <source>Stopping: the running trial saves its last.pt…</source>
      <translation>正在停止：进行中的试验正在保存它的 last.pt…</translation>
    </message>
    <message>
      <source>Stopping: the {n} running trials save their last.pt…</source>
      <translation>正在停止：{n} 个进行中的试验正在保存各自的 last.pt…</translation>
    </message>
    <message>
      <source>Stored in</source>
      <translation>存放位置</translation>
    </message>
    <message>
      <source>Stored in {path}</source>
      <translation>已存于 {path}</translation>
    </message>
    <message>
      <source>Sync cancelled.</source>
      <translation>同步已取消。</translation>
    </message>
    <message>
      <source>Sync cancelled; the files sent whole are there, verified. Sync again to send the rest.</source>
      <translation>同步已取消；已完整发送的文件在那里且已校验。再次同步可发送其余文件。</translation>
    </message>
    <message>
      <source>Synchronised BatchNorm</source>
      <translation>同步 BatchNorm</translation>
    </message>
    <message>
      <source>Tensor cores run FP16 several times faster and it halves activation memory; yolov5 checks AMP itself before training.</source>
      <translation>张量核心运行 FP16 要快好几倍，还能让激活值的显存减半；yolov5 会在训练前自行检查 AMP。</translation>
    </message>
    <message>
      <source>TensorRT 10 does not support this GPU ({name}, compute capability {major}.{minor}; it needs 7.5 or newer).</source>
      <translation>TensorRT 10 不支持这块 GPU（{name}，计算能力 {major}.{minor}；需要 7.5 或更高）。</translation>
    </message>
    <message>
      <source>TensorRT 11 removed INT8 calibration.</source>
      <translation>TensorRT 11 移除了 INT8 校准。</translation>
    </message>
    <message>
      <source>TensorRT 11 removed INT8 calibration; install TensorRT 10 for calibrated INT8 engines.</source>
      <translation>TensorRT 11 移除了 INT8 校准；要生成校准过的 INT8 引擎请安装 TensorRT 10。</translation>
    </message>
    <message>
      <source>TensorRT 11 removed the FP16 builder flag.</source>
      <translation>TensorRT 11 移除了 FP16 构建选项。</translation>
    </message>
    <message>
      <source>TensorRT 11 removed the FP16 builder flag; install TensorRT 10 for FP16 engines.</source>
      <translation>TensorRT 11 移除了 FP16 构建选项；要生成 FP16 引擎请安装 TensorRT 10。</translation>
    </message>
    <message>
      <source>TensorRT could not build an engine for this model on this GPU.</source>
      <translation>TensorRT 无法在这块 GPU 上为这个模型构建引擎。</translation>
    </message>
    <message>
      <source>TensorRT could not parse the ONNX model: {errors}</source>
      <translation>TensorRT 无法解析 ONNX 模型：{errors}</translation>
    </message>
    <message>
      <source>TensorRT is not installed.</source>
      <translation>未安装 TensorRT。</translation>
    </message>
    <message>
      <source>TensorRT needs a CUDA build of PyTorch; this one is CPU-only.</source>
      <translation>TensorRT 需要 CUDA 版本的 PyTorch；当前是纯 CPU 版本。</translation>
    </message>
    <message>
      <source>TensorRT needs an NVIDIA GPU, and none was found on this machine.</source>
      <translation>TensorRT 需要 NVIDIA GPU，但这台机器上没有找到。</translation>
    </message>
    <message>
      <source>TensorRT needs the 'tensorrt' package, which is not installed.</source>
      <translation>TensorRT 需要 'tensorrt' 包，但它没有安装。</translation>
    </message>
    <message>
      <source>TensorRT {version} is installed; export needs TensorRT 10 or newer (version 8's API was removed in 10).</source>
      <translation>已安装 TensorRT {version}；导出需要 TensorRT 10 或更新版本（版本 8 的接口在 10 中已移除）。</translation>
    </message>
    <message>
      <source>TensorRT {version} is too old: export needs TensorRT 10 or newer.</source>
      <translation>TensorRT {version} 太旧：导出需要 TensorRT 10 或更新版本。</translation>
    </message>
    <message>
      <source>Testing CUDA on each GPU…</source>
      <translation>正在每块 GPU 上测试 CUDA…</translation>
    </message>
    <message>
      <source>The 'background' column: {n} detections where no object is labelled (false positives — or labels that are missing).</source>
      <translation>“背景”列：{n} 个检测处没有标注目标（误检——或漏标）。</translation>
    </message>
    <message>
      <source>The 'background' row: {n} labelled objects that no detection found (missed).</source>
      <translation>“背景”行：{n} 个已标注目标没有被检测到（漏检）。</translation>
    </message>
    <message>
      <source>The CPU is the limit: it prepares the images and computes the model</source>
      <translation>瓶颈在 CPU：它既要准备图片又要计算模型</translation>
    </message>
    <message>
      <source>The GPU computes only {util:.0f}% of the time yet its clocks are held by the power limit ({power} of {limit}): the limit is far below what this card needs.</source>
      <translation>GPU 只有 {util:.0f}% 的时间在计算，但其频率被功率上限（{power}，上限 {limit}）限制：该上限远低于这张卡的需要。</translation>
    </message>
    <message>
      <source>The GPU computes {util:.0f}% of the time, but NVML could not list its processes ({reason}), so who runs on it is unknown; training would get a share of it.</source>
      <translation>GPU 有 {util:.0f}% 的时间在计算，但 NVML 无法列出其进程（{reason}），因此不知道谁在使用它；训练只能分到其中一部分。</translation>
    </message>
    <message>
      <source>The GPU computes {util:.0f}% of the time, but NVML lists no compute process here: another container, virtual machine or user runs on it, and training would get a share of it.</source>
      <translation>GPU 有 {util:.0f}% 的时间在计算，但 NVML 在这里没有列出计算进程：另一个容器、虚拟机或用户正在使用它，训练只能分到一部分算力。</translation>
    </message>
    <message>
      <source>The GPU could not run PyTorch's CUDA code. Check the Environment page: driver, CUDA build and GPU architecture must match.</source>
      <translation>GPU 无法运行 PyTorch 的 CUDA 代码。请查看环境页面：驱动、CUDA 版本和 GPU 架构必须匹配。</translation>
    </message>
    <message>
      <source>The GPU driver cannot be queried</source>
      <translation>无法查询 GPU 驱动</translation>
    </message>
    <message>
      <source>The GPU driver is too old for this PyTorch (CUDA {cuda})</source>
      <translation>GPU 驱动对这个 PyTorch（CUDA {cuda}）来说太旧</translation>
    </message>
    <message>
      <source>The GPU is at or near its slowdown temperature and lowers its clocks.</source>
      <translation>GPU 已达到或接近降频温度，正在降低频率。</translation>
    </message>
    <message>
      <source>The GPU is idle between small steps</source>
      <translation>GPU 在很小的步骤之间空闲</translation>
    </message>
    <message>
      <source>The GPU is slowing itself down</source>
      <translation>GPU 正在自行降频</translation>
    </message>
    <message>
      <source>The GPU is {family} (compute capability {major}.{minor}); the installed wheel is compiled for {archs}. CUDA calls fail with 'no kernel image is available for execution on the device'.</source>
      <translation>GPU 是 {family}（计算能力 {major}.{minor}）；安装的版本是为 {archs} 编译的。CUDA 调用会失败并提示 'no kernel image is available for execution on the device'。</translation>
    </message>
    <message>
      <source>The GPU ran out of memory. Lower the batch size (or image size), close other programs using the GPU, then resume from the last checkpoint.</source>
      <translation>显存不足。请减小批大小（或图片尺寸），关闭其他使用 GPU 的程序，然后从最后的检查点继续训练。</translation>
    </message>
    <message>
      <source>The GPU waited for data {share} of the time.</source>
      <translation>GPU 有 {share} 的时间在等待数据。</translation>
    </message>
    <message>
      <source>The GPU.</source>
      <translation>GPU。</translation>
    </message>
    <message>
      <source>The JPEG has extra bytes after its end marker. yolov5 would re-save it in place ('corrupt JPEG restored and saved'), rewriting your file at quality 100 without those bytes; YOLO Studio stops that write (core/worker/compat_jpeg.py), keeps your file as it is and trains on the image as it reads.</source>
      <translation>这个 JPEG 在结束标记后还有多余字节。yolov5 会原地重新保存它（'corrupt JPEG restored and saved'），以质量 100 重写你的文件并去掉这些字节；YOLO Studio 阻止了这次写入（core/worker/compat_jpeg.py），保留你的文件原样，并按读到的内容用它训练。</translation>
    </message>
    <message>
      <source>The JPEG is truncated ('{reason}'). yolov5 tries to re-save it, cannot decode it, and drops the image as corrupt; restore the original if you have it.</source>
      <translation>JPEG 文件被截断（'{reason}'）。yolov5 会尝试重新保存但无法解码，最终把它当作损坏图片丢弃；如有原图请恢复。</translation>
    </message>
    <message>
      <source>The NVIDIA container runtime mounts only the GPUs NVIDIA_VISIBLE_DEVICES names when the container starts; '{value}' names none, so neither NVML nor PyTorch can see a GPU here. If the host has one, start the container with it — nothing inside the container can add it.</source>
      <translation>NVIDIA 容器运行时只在容器启动时挂载 NVIDIA_VISIBLE_DEVICES 指定的 GPU；'{value}' 没有指定任何 GPU，因此这里 NVML 和 PyTorch 都看不到 GPU。如果主机有 GPU，请带上它重新启动容器——容器内部无法添加。</translation>
    </message>
    <message>
      <source>The NVIDIA driver did not answer ({error}: {message}), so no GPU could be checked and the CPU build is installed. Fix the driver (nvidia-smi must list the GPU), then run the installer again: it switches PyTorch in place.</source>
      <translation>NVIDIA 驱动没有响应（{error}：{message}），所以无法检查任何 GPU，已安装 CPU 版本。请修好驱动（nvidia-smi 必须能列出 GPU），然后重新运行安装程序：它会原地切换 PyTorch。</translation>
    </message>
    <message>
      <source>The NVIDIA driver is installed but not loaded</source>
      <translation>NVIDIA 驱动已安装但未加载</translation>
    </message>
    <message>
      <source>The NVIDIA driver was updated, but the old one is still loaded</source>
      <translation>NVIDIA 驱动已更新，但加载的仍是旧驱动</translation>
    </message>
    <message>
      <source>The NVIDIA driver {driver} is older than {needed}, the oldest driver any PyTorch CUDA wheel for {gpus} runs with, so the CPU build is installed and training will not use the GPU. Update the driver to {needed} or newer ({recommended} or newer for the {tag} wheel), then run the installer again: it switches PyTorch in place.</source>
      <translation>NVIDIA 驱动 {driver} 比 {needed} 旧，而 {needed} 是 {gpus} 可用的任何 PyTorch CUDA 安装包所需的最低驱动，所以安装了 CPU 版本，训练不会使用 GPU。请把驱动更新到 {needed} 或更新版本（{tag} 安装包需要 {recommended} 或更新），然后重新运行安装程序：它会原地切换 PyTorch。</translation>
    </message>
    <message>
      <source>The ONNX exporter reported success but wrote no model.</source>
      <translation>ONNX 导出器报告成功，但没有写出模型文件。</translation>
    </message>
    <message>
      <source>The ONNX model TensorRT would build from does not match PyTorch (max abs diff {diff}).</source>
      <translation>TensorRT 将要使用的 ONNX 模型与 PyTorch 不一致（最大绝对差 {diff}）。</translation>
    </message>
    <message>
      <source>The ONNX opset applies to ONNX and TensorRT exports only.</source>
      <translation>ONNX opset 只适用于 ONNX 和 TensorRT 导出。</translation>
    </message>
    <message>
      <source>The OpenSSH client (ssh) is not installed on this machine.</source>
      <translation>本机没有安装 OpenSSH 客户端（ssh）。</translation>
    </message>
    <message>
      <source>The Python version could not be read.</source>
      <translation>无法读取 Python 版本。</translation>
    </message>
    <message>
      <source>The Ray address "{address}" is not HOST:PORT (for example 10.0.0.5:6379).</source>
      <translation>Ray 地址 "{address}" 不是 HOST:PORT 形式（例如 10.0.0.5:6379）。</translation>
    </message>
    <message>
      <source>The YOLO Studio window cannot open yet: Qt's X11 plugin needs system libraries that are not installed ({libraries}). Install them with:
    {command}
{then}</source>
      <translation>YOLO Studio 窗口暂时无法打开：Qt 的 X11 插件需要的系统库尚未安装（{libraries}）。请用以下命令安装：
    {command}
{then}</translation>
    </message>
    <message>
      <source>The address of machine 0, reachable from every machine (static rendezvous, instead of Rendezvous).</source>
      <translation>第 0 台机器的地址，每台机器都必须能访问（静态汇合，代替“汇合点”）。</translation>
    </message>
    <message>
      <source>The app would be installed inside the source folder {clone}; choose a --prefix outside it (the default is per user).</source>
      <translation>应用将被安装到源文件夹 {clone} 内；请选择它以外的 --prefix（默认按用户安装）。</translation>
    </message>
    <message>
      <source>The app's environment ({path}) is not writable by you — it was installed by another user or is read-only. Ask its owner to run the command below.</source>
      <translation>你没有应用环境（{path}）的写权限——它由其他用户安装，或是只读的。请让它的所有者运行下面的命令。</translation>
    </message>
    <message>
      <source>The architecture of {gpus} could not be read; the wheel was chosen for the driver alone.</source>
      <translation>无法读取 {gpus} 的架构；仅根据驱动选择了安装包。</translation>
    </message>
    <message>
      <source>The best epoch is the last or nearly: more epochs will likely raise the mAP.</source>
      <translation>最佳轮次是最后一轮或接近最后：更多轮次很可能提高 mAP。</translation>
    </message>
    <message>
      <source>The board halves its clocks or more ({reasons}): this comes from the power supply (an external power brake, or power spikes beyond what it delivers) or from heat.</source>
      <translation>显卡把频率降低了一半或更多（{reasons}）：原因来自电源（外部功率制动，或超出其供电能力的功率尖峰）或过热。</translation>
    </message>
    <message>
      <source>The box has width {w} and height {h}. yolov5 keeps it, but a box without area teaches the model nothing and usually means a labelling slip.</source>
      <translation>这个框的宽为 {w}、高为 {h}。yolov5 会保留它，但没有面积的框对模型毫无帮助，通常说明标注有误。</translation>
    </message>
    <message>
      <source>The box has width {w} and height {h}: a size cannot be negative. yolov5 drops the image as corrupt ('{quote}'). If a converter subtracted the corners in the wrong order, the absolute value is the real size.</source>
      <translation>这个框的宽为 {w}、高为 {h}：尺寸不能为负。yolov5 会把图片当作损坏丢弃（'{quote}'）。如果是转换工具把角点顺序减反了，取绝对值就是真实尺寸。</translation>
    </message>
    <message>
      <source>The class id is infinite. yolov5's scan keeps the row, then training fails when it turns the class into a whole number ('cannot convert float infinity to integer').</source>
      <translation>类别 id 是无穷大。yolov5 扫描时保留这一行，但训练时把类别转为整数会失败（'cannot convert float infinity to integer'）。</translation>
    </message>
    <message>
      <source>The connection closed after {got} of {total} bytes.</source>
      <translation>连接在收到 {got}/{total} 字节后关闭。</translation>
    </message>
    <message>
      <source>The connection failed: {reason}</source>
      <translation>连接失败：{reason}</translation>
    </message>
    <message>
      <source>The connection was refused ({reason}).</source>
      <translation>连接被拒绝（{reason}）。</translation>
    </message>
    <message>
      <source>The data keeps up; the model's computation on the CPU sets the pace</source>
      <translation>数据跟得上；速度取决于 CPU 上的模型计算</translation>
    </message>
    <message>
      <source>The dataset could not be read: a file it names is missing, damaged or not what yolov5 expects. Run 'yolostudio dataset check' on the data.yaml (or open it on the Dataset page) to find it.</source>
      <translation>无法读取数据集：其中列出的某个文件缺失、损坏或不符合 yolov5 的要求。请对该 data.yaml 运行 'yolostudio dataset check'（或在“数据集”页面中打开它）找出该文件。</translation>
    </message>
    <message>
      <source>The dataset folder is given relative to this file. YOLO Studio reads it that way, but yolov5 itself resolves a relative 'path' (or a missing one) against its own install folder, not this file's; set 'path' to the absolute folder (one-click fix) so every tool finds the images.</source>
      <translation>数据集文件夹是相对于这个文件给出的。YOLO Studio 按此读取，但 yolov5 会相对于它自己的安装文件夹（而不是这个文件所在位置）解析相对的 'path'（或缺失的 'path'）；请把 'path' 设为绝对路径（一键修复），让所有工具都能找到图片。</translation>
    </message>
    <message>
      <source>The dataset folder {root} does not exist.</source>
      <translation>数据集文件夹 {root} 不存在。</translation>
    </message>
    <message>
      <source>The dataset has {n} error that would stop training; nothing was started.</source>
      <translation>数据集有 {n} 个会让训练停止的错误；没有开始训练。</translation>
    </message>
    <message>
      <source>The dataset has {n} errors that would stop training; nothing was started.</source>
      <translation>数据集有 {n} 个会让训练停止的错误；没有开始训练。</translation>
    </message>
    <message>
      <source>The dataset of run {run} is not there: {path}</source>
      <translation>训练 {run} 的数据集不在原处：{path}</translation>
    </message>
    <message>
      <source>The dataset version was not recorded: {reason}</source>
      <translation>未能记录数据集版本：{reason}</translation>
    </message>
    <message>
      <source>The dataset {data} is not on this machine: it is sent from here.</source>
      <translation>数据集 {data} 不在本机：数据集要从本机发送。</translation>
    </message>
    <message>
      <source>The dataset {path} has no class {classes} (its classes: {names}); nothing was added.</source>
      <translation>数据集 {path} 没有类别 {classes}（它的类别：{names}）；未添加任何内容。</translation>
    </message>
    <message>
      <source>The dataset's data.yaml: where the images are and the class names. Check it on the Dataset page first — an error there stops training.</source>
      <translation>数据集的 data.yaml：图片在哪里，类别叫什么。请先在数据集页面检查它——那里的错误会让训练停止。</translation>
    </message>
    <message>
      <source>The disk is full. Free some space (old runs, caches), then resume from the last checkpoint.</source>
      <translation>磁盘已满。请清理一些空间（旧的训练、缓存），然后从最后的检查点继续训练。</translation>
    </message>
    <message>
      <source>The doctor on {name} gave no report (exit code {code}): {reason}</source>
      <translation>{name} 上的环境检查没有给出报告（退出码 {code}）：{reason}</translation>
    </message>
    <message>
      <source>The download was refused (HTTP {code}): a firewall or proxy may be blocking github.com.</source>
      <translation>下载被拒绝（HTTP {code}）：可能有防火墙或代理屏蔽了 github.com。</translation>
    </message>
    <message>
      <source>The driver found memory errors on this GPU and marked the pages (or rows) to be taken out of use, which happens only when the GPU is reset. Until then the faulty memory can crash a training run.</source>
      <translation>驱动在这块 GPU 上发现了显存错误，并标记了要停用的页（或行），但只有在 GPU 重置时才会真正停用。在此之前，故障显存可能让训练崩溃。</translation>
    </message>
    <message>
      <source>The driver supports CUDA {have}; this PyTorch is built for {want}</source>
      <translation>驱动支持 CUDA {have}；这个 PyTorch 是为 {want} 编译的</translation>
    </message>
    <message>
      <source>The environment check did not finish</source>
      <translation>环境检查没有完成</translation>
    </message>
    <message>
      <source>The environment check hung and was stopped</source>
      <translation>环境检查卡住并被终止</translation>
    </message>
    <message>
      <source>The evaluation's images.json in {folder} is missing or incomplete.</source>
      <translation>{folder} 中评估的 images.json 缺失或不完整。</translation>
    </message>
    <message>
      <source>The evaluations of run {run} are of other weights than its {weights} now.</source>
      <translation>训练 {run} 的评估所用的权重与它现在的 {weights} 不同。</translation>
    </message>
    <message>
      <source>The exported ONNX file does not pass onnx.checker: {reason}</source>
      <translation>导出的 ONNX 文件未通过 onnx.checker：{reason}</translation>
    </message>
    <message>
      <source>The facts file has no valid version number.</source>
      <translation>检测信息文件没有有效的版本号。</translation>
    </message>
    <message>
      <source>The facts file holds {found}, not a facts object.</source>
      <translation>检测信息文件包含的是 {found}，而不是检测信息对象。</translation>
    </message>
    <message>
      <source>The facts file is version {found}, newer than this app reads ({known}); fields it does not know are ignored.</source>
      <translation>检测信息文件的版本是 {found}，比本应用能读取的（{known}）更新；不认识的字段会被忽略。</translation>
    </message>
    <message>
      <source>The file holds more than {limit} values once its aliases (*name, &lt;&lt;:) are expanded (at line {line}); a data.yaml is limited to that.</source>
      <translation>展开别名（*name、&lt;&lt;:）后，该文件包含超过 {limit} 个值（第 {line} 行）；data.yaml 以此为上限。</translation>
    </message>
    <message>
      <source>The file is really a {format} image, whatever its name says. yolov5 drops it as corrupt{reason}; convert it to JPEG or PNG.</source>
      <translation>无论文件名如何，这其实是一张 {format} 图片。yolov5 会把它当作损坏图片丢弃{reason}；请转换为 JPEG 或 PNG。</translation>
    </message>
    <message>
      <source>The file is {size} MB; a data.yaml is limited to {limit} MB.</source>
      <translation>该文件大小为 {size} MB；data.yaml 的上限为 {limit} MB。</translation>
    </message>
    <message>
      <source>The file list from {name} is not readable: {reason}</source>
      <translation>来自 {name} 的文件列表无法读取：{reason}</translation>
    </message>
    <message>
      <source>The file starts with a UTF-8 byte-order mark. yolov5 reads it as part of the first number and drops the image as corrupt with a confusing 'could not convert string to float' message; strip the mark (one-click fix).</source>
      <translation>文件以 UTF-8 字节顺序标记（BOM）开头。yolov5 会把它当作第一个数字的一部分读入，并以令人费解的 'could not convert string to float' 把图片当作损坏丢弃；请去掉这个标记（一键修复）。</translation>
    </message>
    <message>
      <source>The file {what}. A data.yaml is a mapping with at least 'train', 'val' and 'names'.</source>
      <translation>这个文件{what}。data.yaml 是一个映射，至少包含 'train'、'val' 和 'names'。</translation>
    </message>
    <message>
      <source>The fingerprint {given} is not the server's ({offered}): nothing was accepted.</source>
      <translation>指纹 {given} 不是服务器的（{offered}）：没有接受任何密钥。</translation>
    </message>
    <message>
      <source>The full pip output is in {log}.</source>
      <translation>pip 的完整输出在 {log}。</translation>
    </message>
    <message>
      <source>The host key of {dest} ({host} port {port}) is not known yet. The server offers:
{keys}
Compare it with the server's own (on the server: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub).</source>
      <translation>{dest}（{host} 端口 {port}）的主机密钥尚未被信任。服务器提供的是：
{keys}
请与服务器自己的指纹核对（在服务器上运行：ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub）。</translation>
    </message>
    <message>
      <source>The host key of {dest} has CHANGED since it was accepted: refusing to connect.</source>
      <translation>{dest} 的主机密钥在接受之后已经改变：拒绝连接。</translation>
    </message>
    <message>
      <source>The host key of {dest} is not known yet.</source>
      <translation>{dest} 的主机密钥尚未被信任。</translation>
    </message>
    <message>
      <source>The host key was not accepted; nothing was saved.</source>
      <translation>主机密钥未被接受；没有保存任何内容。</translation>
    </message>
    <message>
      <source>The image is so large that Pillow refuses to open it ('{reason}'); yolov5 drops it as corrupt. Downscale it.</source>
      <translation>图片太大，Pillow 拒绝打开（'{reason}'）；yolov5 会把它当作损坏图片丢弃。请缩小它。</translation>
    </message>
    <message>
      <source>The image is {w}×{h} px ({mpx:.0f} Mpx). yolov5 decodes it at full size before resizing, which slows every epoch and costs memory in each loader worker; downscale it.</source>
      <translation>图片为 {w}×{h} 像素（{mpx:.0f} 百万像素）。yolov5 会先按原尺寸解码再缩放，这会拖慢每一轮并占用每个加载进程的内存；请缩小它。</translation>
    </message>
    <message>
      <source>The image is {w}×{h} px. yolov5 drops images under {min} px on a side as corrupt ('image size ({w}, {h}) &lt;10 pixels').</source>
      <translation>图片为 {w}×{h} 像素。yolov5 会把任一边小于 {min} 像素的图片当作损坏图片丢弃（'image size ({w}, {h}) &lt;10 pixels'）。</translation>
    </message>
    <message>
      <source>The image size must be at least 32, not {imgsz}.</source>
      <translation>图片尺寸至少为 32，而不是 {imgsz}。</translation>
    </message>
    <message>
      <source>The input pipeline keeps up</source>
      <translation>输入流水线跟得上</translation>
    </message>
    <message>
      <source>The installed app could not tell where its workspace is; it is left in place.</source>
      <translation>已安装的应用无法确定工作区位置；工作区保持原样。</translation>
    </message>
    <message>
      <source>The installed torch wheel has no CUDA support, so training would run on the CPU and the GPU would sit idle. Install the CUDA wheel that matches the driver.</source>
      <translation>安装的 torch 包不支持 CUDA，所以训练会在 CPU 上进行，GPU 会闲置。请安装与驱动匹配的 CUDA 版本。</translation>
    </message>
    <message>
      <source>The installer on {name} failed</source>
      <translation>{name} 上的安装程序失败</translation>
    </message>
    <message>
      <source>The keys of 'names' must be class ids (0, 1, 2 …). yolov5 stops with 'names keys must be integers'.</source>
      <translation>'names' 的键必须是类别 id（0、1、2 …）。yolov5 会以 'names keys must be integers' 停止。</translation>
    </message>
    <message>
      <source>The label file cannot be read ('{reason}'). yolov5 drops the image as corrupt.</source>
      <translation>无法读取该标签文件（'{reason}'）。yolov5 会将该图片视为损坏并丢弃。</translation>
    </message>
    <message>
      <source>The largest batch that trained with room to spare: the GPU stays busy and yolov5 accumulates to {nbs} images per step.</source>
      <translation>训练时仍有余量的最大批大小：GPU 保持忙碌，yolov5 会累积到每步 {nbs} 张图片。</translation>
    </message>
    <message>
      <source>The largest mix-up: {n} '{true}' objects predicted as '{pred}'.</source>
      <translation>最大的混淆：{n} 个 '{true}' 目标被预测为 '{pred}'。</translation>
    </message>
    <message>
      <source>The largest model that fits the {goal} goal's {budget} on this CPU.</source>
      <translation>在本机 CPU 上符合“{goal}”目标 {budget} 的最大模型。</translation>
    </message>
    <message>
      <source>The largest model that fits your time budget.</source>
      <translation>符合你时间预算的最大模型。</translation>
    </message>
    <message>
      <source>The largest model this device trains at a useful batch.</source>
      <translation>这个设备能以有效批大小训练的最大模型。</translation>
    </message>
    <message>
      <source>The link has {share:.0f}% of the bandwidth the card can use.{cost}</source>
      <translation>该链路只有显卡可用带宽的 {share:.0f}%。{cost}</translation>
    </message>
    <message>
      <source>The link to {name} did not come back; the job goes on there.</source>
      <translation>与 {name} 的连接没有恢复；任务在那里继续运行。</translation>
    </message>
    <message>
      <source>The link to {name} did not come back; the run goes on there. 'yolostudio attach {run} --machine {name}' follows it again.</source>
      <translation>与 {name} 的连接没有恢复；训练在那里继续。'yolostudio attach {run} --machine {name}' 可重新跟踪它。</translation>
    </message>
    <message>
      <source>The link to {name} dropped; the job goes on there. Reconnecting (from byte {offset}) …</source>
      <translation>与 {name} 的连接已断开；任务在那里继续运行。正在重新连接（从第 {offset} 字节）…</translation>
    </message>
    <message>
      <source>The link to {name} dropped; the run goes on there. Reconnecting (from byte {offset}) …</source>
      <translation>与 {name} 的连接断开了；训练在那里继续。正在重新连接（从第 {offset} 字节起）…</translation>
    </message>
    <message>
      <source>The link to {name} failed while sending: {reason}</source>
      <translation>发送时与 {name} 的连接失败：{reason}</translation>
    </message>
    <message>
      <source>The loader already feeds the GPU with yolov5's own augmentation in its workers.</source>
      <translation>加载器在其工作进程中执行 yolov5 自带的增强，已经能喂饱 GPU。</translation>
    </message>
    <message>
      <source>The loader supplies fewer images than the GPU trains: augmenting each batch on the GPU leaves the workers only decoding, about {gain:.1f}× the supply.</source>
      <translation>加载器供给的图片少于 GPU 的训练速度：在 GPU 上按批次做数据增强后，工作进程只需解码，供给约为原来的 {gain:.1f} 倍。</translation>
    </message>
    <message>
      <source>The mAP then weighs the classes differently from what the model learned.</source>
      <translation>这样 mAP 对各类别的权重与模型所学不同。</translation>
    </message>
    <message>
      <source>The machine ran out of RAM. Use fewer workers, or turn off the RAM cache.</source>
      <translation>机器内存不足。请减少加载进程，或关闭内存缓存。</translation>
    </message>
    <message>
      <source>The machine will swap ({swap:.1f} GB of swap), which slows every step.</source>
      <translation>机器会使用交换空间（{swap:.1f} GB），这会拖慢每一步。</translation>
    </message>
    <message>
      <source>The model definition was not loaded: {reason}</source>
      <translation>未加载模型定义：{reason}</translation>
    </message>
    <message>
      <source>The model is a checkpoint: training starts from its weights.</source>
      <translation>模型是一个检查点：训练从它的权重开始。</translation>
    </message>
    <message>
      <source>The model learned the training images by heart after epoch {best}</source>
      <translation>第 {best} 轮之后模型开始死记训练图片</translation>
    </message>
    <message>
      <source>The model's computation on the CPU waited for data {share} of the time.</source>
      <translation>CPU 上的模型计算有 {share} 的时间在等待数据。</translation>
    </message>
    <message>
      <source>The network may be slow or blocked. If this network needs a proxy, set HTTPS_PROXY (and NO_PROXY) in the environment YOLO Studio starts from; or download the file elsewhere and use Import.</source>
      <translation>网络可能很慢或被屏蔽。如果这个网络需要代理，请在启动 YOLO Studio 的环境中设置 HTTPS_PROXY（和 NO_PROXY）；或在别处下载文件后用“导入”。</translation>
    </message>
    <message>
      <source>The network: yolov5n (smallest, fastest) … yolov5x (largest, most accurate, about 25x the compute of n), a model YAML, or a .pt checkpoint to start from. Larger models need more GPU memory and time per image.</source>
      <translation>网络：yolov5n（最小、最快）… yolov5x（最大、最准，计算量约为 n 的 25 倍），一个模型 YAML，或作为起点的 .pt 检查点。更大的模型每张图片需要更多显存和时间。</translation>
    </message>
    <message>
      <source>The nodes don't train on the same thing: {problems}</source>
      <translation>各节点训练的内容不一致：{problems}</translation>
    </message>
    <message>
      <source>The options cannot be used for a search.</source>
      <translation>这些选项无法用于搜索。</translation>
    </message>
    <message>
      <source>The prepared copy of {source} was out of date and has been refreshed ({n} image resized again), so training did not start on stale pixels. Start again once the dataset check passes.</source>
      <translation>{source} 的预处理副本已过期，现已刷新（重新缩放了 {n} 张图片），因此没有用过期的像素开始训练。数据集检查通过后请再次点击开始。</translation>
    </message>
    <message>
      <source>The prepared copy of {source} was out of date and has been refreshed ({n} images resized again), so training did not start on stale pixels. Start again once the dataset check passes.</source>
      <translation>{source} 的预处理副本已过期，现已刷新（重新缩放了 {n} 张图片），因此没有用过期的像素开始训练。数据集检查通过后请再次点击开始。</translation>
    </message>
    <message>
      <source>The probe did not finish step '{step}' within {limit:.0f} s and was killed. A GPU driver that hangs like this (a wedged driver, a GPU that fell off the bus) will hang training too.</source>
      <translation>探测在 {limit:.0f} 秒内没有完成步骤 '{step}'，已被终止。像这样卡住的 GPU 驱动（驱动僵死、GPU 从总线掉线）也会让训练卡住。</translation>
    </message>
    <message>
      <source>The probe process ended before reporting all facts; the checks below use what it reported.</source>
      <translation>探测进程在报告全部信息之前就结束了；下面的检查使用它已报告的内容。</translation>
    </message>
    <message>
      <source>The proxy asks for a user name and password (HTTP 407).</source>
      <translation>代理要求用户名和密码（HTTP 407）。</translation>
    </message>
    <message>
      <source>The release file may have moved: download it from the YOLOv5 release page yourself and use Import.</source>
      <translation>发布文件可能已移动：请自己从 YOLOv5 发布页面下载，然后用“导入”。</translation>
    </message>
    <message>
      <source>The rendezvous's name, the same on every machine of this run. Left empty, machine 0 makes an unguessable one and puts it in the other machines' commands; it is not a password: the rendezvous must be on a network you trust.</source>
      <translation>汇合点的名称，本次训练的每台机器都相同。留空时，第 0 台机器会生成一个无法猜到的 ID，并写进其他机器的命令中；它不是密码：汇合点必须在你信任的网络上。</translation>
    </message>
    <message>
      <source>The repair failed: {reason}</source>
      <translation>修复失败：{reason}</translation>
    </message>
    <message>
      <source>The row holds NaN or infinity. yolov5 drops the image as corrupt and reports it as '{quote}', which hides the real cause.</source>
      <translation>这一行含有 NaN 或无穷大。yolov5 会把图片当作损坏丢弃并报告 '{quote}'，掩盖了真正的原因。</translation>
    </message>
    <message>
      <source>The run list from {name} is not readable: {reason}</source>
      <translation>来自 {name} 的训练记录无法读取：{reason}</translation>
    </message>
    <message>
      <source>The run's files were damaged (a killed process, a full disk or an edit). Its weights, if any, are still in its weights folder.</source>
      <translation>训练的文件已损坏（进程被强制结束、磁盘已满或被编辑过）。它的权重（如果有）仍在其 weights 文件夹中。</translation>
    </message>
    <message>
      <source>The run's folder under runs/; a number is added when it exists already.</source>
      <translation>训练在 runs/ 下的文件夹；已存在时会加上编号。</translation>
    </message>
    <message>
      <source>The run's own predictions on its training images are biased: it learned those labels, mistakes included, so the errors there would not point at wrong labels.</source>
      <translation>该训练自己对其训练图片的预测是有偏的：它学过这些标注（包括其中的错误），所以那里的错误不会指向错误的标注。</translation>
    </message>
    <message>
      <source>The same file is in train and val, so validation scores are inflated. yolov5 never reports this; remove it from val (one-click fix).</source>
      <translation>同一个文件同时出现在 train 和 val 中，验证分数因此虚高。yolov5 从不报告这一点；把它从 val 中删除（一键修复）。</translation>
    </message>
    <message>
      <source>The same {what} as line {first}. yolov5 removes duplicates with a warning; drop it (one-click fix).</source>
      <translation>与第 {first} 行的{what}相同。yolov5 会删除重复项并给出警告；请删掉它（一键修复）。</translation>
    </message>
    <message>
      <source>The server answered HTTP {code} {reason}.</source>
      <translation>服务器返回 HTTP {code} {reason}。</translation>
    </message>
    <message>
      <source>The server offers {got} bytes; the published size is {want}.</source>
      <translation>服务器提供 {got} 字节；公布的大小是 {want}。</translation>
    </message>
    <message>
      <source>The server offers {mb:.1f} MB, far from the {low:.0f}–{high:.0f} MB this checkpoint's published parameter count implies.</source>
      <translation>服务器提供的是 {mb:.1f} MB，与这个检查点公布的参数量对应的 {low:.0f}–{high:.0f} MB 相差很远。</translation>
    </message>
    <message>
      <source>The server redirected the download to {url}, which is not HTTPS; refused.</source>
      <translation>服务器把下载重定向到了 {url}，它不是 HTTPS；已拒绝。</translation>
    </message>
    <message>
      <source>The server refused to resume the download.</source>
      <translation>服务器拒绝断点续传。</translation>
    </message>
    <message>
      <source>The server resumed at the wrong place.</source>
      <translation>服务器从错误的位置续传。</translation>
    </message>
    <message>
      <source>The server sent more than the {total} bytes it announced.</source>
      <translation>服务器发送的数据超过了它声明的 {total} 字节。</translation>
    </message>
    <message>
      <source>The server sent nothing for {seconds:g} s.</source>
      <translation>服务器在 {seconds:g} 秒内没有发送任何数据。</translation>
    </message>
    <message>
      <source>The server's certificate could not be verified ({reason}).</source>
      <translation>无法验证服务器的证书（{reason}）。</translation>
    </message>
    <message>
      <source>The smallest count that feeds the model ({headroom:.1f}× its demand); more would only cost cores and RAM.</source>
      <translation>能喂饱模型的最少进程数（其需求的 {headroom:.1f} 倍）；更多只会占用核心和内存。</translation>
    </message>
    <message>
      <source>The smallest model: a quick test.</source>
      <translation>最小的模型：用于快速测试。</translation>
    </message>
    <message>
      <source>The stop came as training was finishing: all {n} epochs are done, so the run completed with its final weights.</source>
      <translation>停止请求到达时训练即将结束：全部 {n} 轮已完成，因此本次训练以最终权重完成。</translation>
    </message>
    <message>
      <source>The stop came as training was finishing: its {n} epoch is done, so the run completed with its final weights.</source>
      <translation>停止请求到达时训练即将结束：全部 {n} 轮已完成，因此本次训练以最终权重完成。</translation>
    </message>
    <message>
      <source>The stream {url} does not open.</source>
      <translation>视频流 {url} 无法打开。</translation>
    </message>
    <message>
      <source>The system library {library} is missing: {command}, then run the installer again.</source>
      <translation>缺少系统库 {library}：{command}，然后重新运行安装程序。</translation>
    </message>
    <message>
      <source>The system library {library} that PyTorch links against is missing.</source>
      <translation>缺少 PyTorch 所链接的系统库 {library}。</translation>
    </message>
    <message>
      <source>The tile overlap {overlap} is not between 0 and {high}.</source>
      <translation>切片重叠 {overlap} 不在 0 到 {high} 之间。</translation>
    </message>
    <message>
      <source>The tile size {size} is not between {low} and {high} pixels.</source>
      <translation>切片尺寸 {size} 不在 {low} 到 {high} 像素之间。</translation>
    </message>
    <message>
      <source>The train split has {n} images: too few for {k} folds.</source>
      <translation>训练划分只有 {n} 张图片：不够分成 {k} 折。</translation>
    </message>
    <message>
      <source>The training ended {status} before its first epoch.</source>
      <translation>训练在第一轮之前就以 {status} 结束了。</translation>
    </message>
    <message>
      <source>The training loss is no longer a number at epoch {epoch}, batch {batch} ({losses}); the run was stopped there, since it could not recover.</source>
      <translation>训练损失在第 {epoch} 轮、第 {batch} 批时已不再是数值（{losses}）；训练无法恢复，已在此处停止。</translation>
    </message>
    <message>
      <source>The val loss rose {pct} from its lowest (epoch {low}) while the train loss kept falling; the best epoch was {best} of {epochs}.</source>
      <translation>验证损失从最低点（第 {low} 轮）上升了 {pct}，而训练损失仍在下降；最佳轮次为第 {best} 轮（共 {epochs} 轮）。</translation>
    </message>
    <message>
      <source>The val set is too small to trust the mAP@0.5:0.95 ({n} images: too few to estimate how far other images would move it)</source>
      <translation>验证集太小，mAP@0.5:0.95 不可信（{n} 张图片：太少，无法估计换一批图片后它会变动多少）</translation>
    </message>
    <message>
      <source>The val set is too small to trust the mAP@0.5:0.95 closely ({n} images, ± {pm})</source>
      <translation>验证集太小，mAP@0.5:0.95 不宜细究（{n} 张图片，± {pm}）</translation>
    </message>
    <message>
      <source>The val set's class mix is unlike train's (distance {d})</source>
      <translation>验证集的类别构成与训练集不同（距离 {d}）</translation>
    </message>
    <message>
      <source>The version installed before still passes its check: its shortcut was put back.</source>
      <translation>之前安装的版本仍能通过检查：已恢复它的快捷方式。</translation>
    </message>
    <message>
      <source>The wizard set {n} epoch, {model}, image size {imgsz}, batch {batch}, {workers} workers: predicted {total} ({epoch} per epoch). Press Start to train.</source>
      <translation>向导已设置 {n} 轮、{model}、图片尺寸 {imgsz}、批大小 {batch}、{workers} 个加载进程：预测 {total}（每轮 {epoch}）。按“开始”进行训练。</translation>
    </message>
    <message>
      <source>The wizard set {n} epochs, {model}, image size {imgsz}, batch {batch}, {workers} workers: predicted {total} ({epoch} per epoch). Press Start to train.</source>
      <translation>向导已设置 {n} 轮、{model}、图片尺寸 {imgsz}、批大小 {batch}、{workers} 个加载进程：预测 {total}（每轮 {epoch}）。按“开始”进行训练。</translation>
    </message>
    <message>
      <source>The worker did not finish within {seconds:g} s and was stopped.</source>
      <translation>工作进程在 {seconds:g} 秒内没有完成，已被停止。</translation>
    </message>
    <message>
      <source>The worker log has TensorRT's own messages; a smaller image size or FP32 may work.</source>
      <translation>工作进程日志中有 TensorRT 自己的消息；更小的图片尺寸或 FP32 也许可行。</translation>
    </message>
    <message>
      <source>The worker process could not be started: {reason}</source>
      <translation>无法启动工作进程：{reason}</translation>
    </message>
    <message>
      <source>The worker process ended without its final report (exit code {code}): it was killed or it crashed.</source>
      <translation>工作进程未给出最终报告就结束了（退出码 {code}）：它被终止或崩溃了。</translation>
    </message>
    <message>
      <source>The worker process was killed.</source>
      <translation>工作进程被强制结束了。</translation>
    </message>
    <message>
      <source>The yolov5 package has no {yaml}.</source>
      <translation>yolov5 包中没有 {yaml}。</translation>
    </message>
    <message>
      <source>The yolov5 package is not installed</source>
      <translation>未安装 yolov5 包</translation>
    </message>
    <message>
      <source>The yolov5 package is not installed, so {name} cannot be checked.</source>
      <translation>未安装 yolov5 包，所以无法检查 {name}。</translation>
    </message>
    <message>
      <source>The {split} images ({path}) are outside the dataset folder {root}: only one folder is sent.</source>
      <translation>{split} 图片（{path}）在数据集文件夹 {root} 之外：只会发送一个文件夹。</translation>
    </message>
    <message>
      <source>There is no GPU {entry}: this machine has {count} (0 to {last}), and CUDA shows no GPU from that entry on.</source>
      <translation>没有 GPU {entry}：本机有 {count} 块（0 到 {last}），CUDA 从该项起不再显示任何 GPU。</translation>
    </message>
    <message>
      <source>There is no swap, so the kernel's out-of-memory killer ends the training (or another program) when memory runs out.</source>
      <translation>没有交换空间，所以内存耗尽时内核的 OOM killer 会结束训练（或其他程序）。</translation>
    </message>
    <message>
      <source>There is no {path} to edit.</source>
      <translation>没有可编辑的 {path}。</translation>
    </message>
    <message>
      <source>They are only slightly outside: clip them to [0, 1] (one-click fix).</source>
      <translation>它们只是略微超出：裁剪到 [0, 1]（一键修复）。</translation>
    </message>
    <message>
      <source>They compute {util:.0f}% of the time, so training gets only a share of the GPU.</source>
      <translation>它们有 {util:.0f}% 的时间在计算，所以训练只能分到 GPU 的一部分。</translation>
    </message>
    <message>
      <source>They hold {held:.1f} GB of its memory; yolov5's AutoBatch ignores other processes' memory, so the batch it picks can run out of memory.</source>
      <translation>它们占用了 {held:.1f} GB 显存；yolov5 的 AutoBatch 不考虑其他进程的显存，所以它选的批大小可能导致显存不足。</translation>
    </message>
    <message>
      <source>They look like pixel coordinates: divide x and width by the image width, y and height by its height.</source>
      <translation>它们看起来像像素坐标：把 x 和宽度除以图片宽度，y 和高度除以图片高度。</translation>
    </message>
    <message>
      <source>This GPU has no fast FP16 support.</source>
      <translation>这块 GPU 没有快速的 FP16 支持。</translation>
    </message>
    <message>
      <source>This GPU has no fast INT8 support (compute capability 6.1 or newer is needed).</source>
      <translation>这块 GPU 没有快速的 INT8 支持（需要计算能力 6.1 或更高）。</translation>
    </message>
    <message>
      <source>This PyTorch has no kernels for the GPU's architecture (sm_{cc})</source>
      <translation>这个 PyTorch 没有适用于该 GPU 架构（sm_{cc}）的内核</translation>
    </message>
    <message>
      <source>This PyTorch is a ROCm build, but torch.cuda.is_available() is False, so training would run on the CPU. The usual cause is access to the GPU's device files (/dev/kfd, /dev/dri): the user is not in the 'render' and 'video' groups, or a container was started without those devices. Keep this ROCm build — an NVIDIA (CUDA) wheel cannot drive an AMD GPU.</source>
      <translation>这个 PyTorch 是 ROCm 版，但 torch.cuda.is_available() 为 'False'，所以训练会在 CPU 上运行。常见原因是无法访问 GPU 的设备文件（/dev/kfd、/dev/dri）：用户不在 'render' 和 'video' 组中，或容器启动时没有带上这些设备。请保留这个 ROCm 版本——NVIDIA（CUDA）安装包无法驱动 AMD 显卡。</translation>
    </message>
    <message>
      <source>This PyTorch is a ROCm build: it drives AMD GPUs through the same torch.cuda interface yolov5 uses, so '--device 0' trains on the AMD GPU. NVIDIA's checks (NVML, the NVIDIA driver, CUDA wheels) do not apply and are skipped; GPU monitoring is ROCm's own (rocm-smi). Keep this build.</source>
      <translation>这个 PyTorch 是 ROCm 版：它通过 yolov5 所用的同一个 torch.cuda 接口驱动 AMD 显卡，所以 '--device 0' 会在 AMD 显卡上训练。NVIDIA 的检查（NVML、NVIDIA 驱动、CUDA 安装包）不适用，已跳过；GPU 监控由 ROCm 自己的工具（rocm-smi）负责。请保留这个版本。</translation>
    </message>
    <message>
      <source>This Python cannot create virtual environments (no venv/ensurepip module). Install Python from python.org (Downloads &gt; Windows) and run install.bat again.</source>
      <translation>这个 Python 无法创建虚拟环境（没有 venv/ensurepip 模块）。请从 python.org 安装 Python（Downloads &gt; Windows），然后重新运行 install.bat。</translation>
    </message>
    <message>
      <source>This Python cannot create virtual environments with pip (the ensurepip module is missing). Debian/Ubuntu: sudo apt install python{version}-venv — Fedora/RHEL: sudo dnf install python3-pip — then run the installer again.</source>
      <translation>这个 Python 无法创建带 pip 的虚拟环境（缺少 ensurepip 模块）。Debian/Ubuntu：sudo apt install python{version}-venv — Fedora/RHEL：sudo dnf install python3-pip — 然后重新运行安装程序。</translation>
    </message>
    <message>
      <source>This Python comes from the Microsoft Store ({path}); its sandbox redirects files written under AppData, so shortcuts may not find the app. Install Python from python.org (Downloads &gt; Windows) and run install.bat again.</source>
      <translation>这个 Python 来自 Microsoft Store（{path}）；它的沙盒会重定向写到 AppData 下的文件，快捷方式可能找不到应用。请从 python.org 安装 Python（Downloads &gt; Windows），然后重新运行 install.bat。</translation>
    </message>
    <message>
      <source>This checkpoint could not be loaded safely. Only load .pt files you trust; weights from your own runs are trusted automatically.</source>
      <translation>无法安全地加载这个检查点。只加载你信任的 .pt 文件；你自己训练得到的权重会被自动信任。</translation>
    </message>
    <message>
      <source>This computer is offline or cannot resolve {host}.</source>
      <translation>这台电脑处于离线状态，或无法解析 {host}。</translation>
    </message>
    <message>
      <source>This container was started without GPUs ({variable}={value})</source>
      <translation>此容器启动时没有 GPU（{variable}={value}）</translation>
    </message>
    <message>
      <source>This data.yaml has a download: entry; YOLO Studio never runs or fetches it.</source>
      <translation>此 data.yaml 含有 download: 条目；YOLO Studio 从不运行或下载它。</translation>
    </message>
    <message>
      <source>This engine could not be loaded: it was built for another TensorRT version or GPU.</source>
      <translation>无法加载这个引擎：它是为另一个 TensorRT 版本或 GPU 构建的。</translation>
    </message>
    <message>
      <source>This folder cannot be opened (a broken or looping link?); its images are skipped.</source>
      <translation>无法打开这个文件夹（链接损坏或循环？）；其中的图片会被跳过。</translation>
    </message>
    <message>
      <source>This is a Jetson: its GPU is integrated, and only a PyTorch built for its JetPack release can use it. The installed build has no CUDA, so training would run on the CPU.</source>
      <translation>这是一台 Jetson：它的 GPU 是集成的，只有为它的 JetPack 版本构建的 PyTorch 才能使用。已安装的版本不含 CUDA，所以训练会在 CPU 上运行。</translation>
    </message>
    <message>
      <source>This is a link to {target}, which does not exist. yolov5 lists it, cannot open it and trains without it ('No such file or directory'); restore its target or delete the link.</source>
      <translation>这是指向 {target} 的链接，而目标不存在。yolov5 会列出它、无法打开它，并在没有它的情况下训练（'No such file or directory'）；请恢复其目标或删除该链接。</translation>
    </message>
    <message>
      <source>This is not a data.yaml that can be read: {reason}.</source>
      <translation>这不是可读取的 data.yaml：{reason}。</translation>
    </message>
    <message>
      <source>This is not a file but a pipe, socket or device with an image's name; reading it would wait forever, so it is skipped here — and yolov5 would hang on it: remove it from the dataset.</source>
      <translation>这不是普通文件，而是以图片命名的管道、套接字或设备；读取它会一直等待，因此此处跳过——yolov5 也会卡在它上面：请将其从数据集中移除。</translation>
    </message>
    <message>
      <source>This is not only yolov5's label data ({reason}). yolov5 loads its label cache with pickle, which can run code, whenever it trains on this split. YOLO Studio's trainings set it aside unread; delete it if you train with yolov5 yourself.</source>
      <translation>这不只是 yolov5 的标签数据（{reason}）。每当在此划分上训练时，yolov5 都会用 pickle 加载其标签缓存，而 pickle 可能执行代码。YOLO Studio 的训练会不读取它而将其移开；如果你直接用 yolov5 训练，请删除它。</translation>
    </message>
    <message>
      <source>This label file is the label of {n} images: {images}. yolov5 pairs an image with the label of the same name without its suffix, so all of them train with these boxes; rename all but the image it belongs to, and give each its own label.</source>
      <translation>此标签文件是 {n} 张图片的标签：{images}。yolov5 按去掉后缀后的同名文件为图片配对标签，因此它们都会用这些框训练；请重命名除其所属图片外的所有图片，并为每张图片提供各自的标签。</translation>
    </message>
    <message>
      <source>This label file is {size} MB; YOLO Studio reads label files up to {limit} MB (over 25,000 boxes). yolov5 would read it whole into memory for this one image. Is it really this image's labels?</source>
      <translation>此标签文件有 {size} MB；YOLO Studio 读取的标签文件最大为 {limit} MB（超过 25,000 个框）。yolov5 会为这一张图片把它整个读入内存。它真的是这张图片的标签吗？</translation>
    </message>
    <message>
      <source>This label is not a file but a pipe, device or socket. yolov5 uses a label only when it is a regular file, so it trains the image as a background (no objects); it is not read here either. Replace it with the real label file.</source>
      <translation>此标签不是文件，而是管道、设备或套接字。yolov5 只使用普通文件作为标签，因此会把该图片当作背景（无目标）训练；这里也不会读取它。请用真正的标签文件替换它。</translation>
    </message>
    <message>
      <source>This line holds only spaces or tabs between label rows. yolov5 keeps it as an empty row and drops the whole image as corrupt ('{reason}'); delete the line.</source>
      <translation>这一行在标签行之间只有空格或制表符。yolov5 会把它当作空行，并把整张图片当作损坏丢弃（'{reason}'）；请删除这一行。</translation>
    </message>
    <message>
      <source>This link leads back to a folder already searched (a symlink loop). yolov5's folder search follows links, so it lists the same images again or fails; remove the link.</source>
      <translation>这个链接指回一个已搜索过的文件夹（符号链接循环）。yolov5 的文件夹搜索会跟随链接，因此会重复列出同样的图片或失败；请删除这个链接。</translation>
    </message>
    <message>
      <source>This looks like a bug. The log and the run's events.jsonl show the details; please attach them to a bug report. Your checkpoints are kept: resume from the last one.</source>
      <translation>这看起来是一个程序缺陷。日志和训练的 events.jsonl 中有详细信息；请把它们附在缺陷报告中。你的检查点都已保留：可以从最后一个继续训练。</translation>
    </message>
    <message>
      <source>This machine's rank</source>
      <translation>本机编号</translation>
    </message>
    <message>
      <source>This run had already trained all its epochs when its worker ended; it is now marked completed with its weights ({best}). Its final validation did not run: the metrics shown are those of its last epoch.</source>
      <translation>训练进程结束时本次训练已完成全部轮次；现已用其权重（{best}）标记为已完成。最终验证没有运行：显示的指标来自最后一轮。</translation>
    </message>
    <message>
      <source>This usually follows a suspend and resume: the driver's unified-memory module (nvidia_uvm) does not come back, so CUDA answers 'unknown error' until it is reloaded.</source>
      <translation>这通常发生在休眠并唤醒之后：驱动的统一内存模块（nvidia_uvm）没有恢复，所以在重新加载它之前，CUDA 一直报告 'unknown error'。</translation>
    </message>
    <message>
      <source>Timing the disks…</source>
      <translation>正在测量磁盘速度…</translation>
    </message>
    <message>
      <source>To keep it from recurring, enable NVIDIA's suspend support (sudo systemctl enable nvidia-suspend.service nvidia-resume.service, with the module option NVreg_PreserveVideoMemoryAllocations=1). Nothing needs to be reinstalled.</source>
      <translation>要避免再次发生，请启用 NVIDIA 的休眠支持（sudo systemctl enable nvidia-suspend.service nvidia-resume.service，并设置模块选项 NVreg_PreserveVideoMemoryAllocations=1）。不需要重新安装任何东西。</translation>
    </message>
    <message>
      <source>To search with other settings, start a new search.</source>
      <translation>要用其他设置搜索，请开始一次新的搜索。</translation>
    </message>
    <message>
      <source>Too big for RAM, but the disk is fast and has room: yolov5 decodes each image once into a .npy file beside it and reads those.</source>
      <translation>内存放不下，但磁盘够快且有空间：yolov5 把每张图片解码一次，存成旁边的 .npy 文件，之后读这些文件。</translation>
    </message>
    <message>
      <source>Too little free RAM to train at batch {batch}, imgsz {imgsz}</source>
      <translation>可用内存太少，无法以批大小 {batch}、图片尺寸 {imgsz} 训练</translation>
    </message>
    <message>
      <source>TorchScript tracing wrote no model.</source>
      <translation>TorchScript 追踪没有写出模型文件。</translation>
    </message>
    <message>
      <source>Train at --imgsz {imgsz}, or with a P6 model (yolov5s6) at 1280.</source>
      <translation>用 --imgsz {imgsz} 训练，或用 P6 模型（yolov5s6）在 1280 训练。</translation>
    </message>
    <message>
      <source>Train every class as one 'object' class: detection without telling the classes apart.</source>
      <translation>把所有类别当作一个“目标”类别训练：只检测，不区分类别。</translation>
    </message>
    <message>
      <source>Train in FP32 instead of letting yolov5 switch mixed precision on: for GPUs whose FP16 training turns the loss to NaN later in the run although yolov5's AMP check passes (GTX 16xx, Quadro T-series). Costs about twice the GPU memory per image and slower steps on GPUs with tensor cores.</source>
      <translation>以 FP32 训练，而不是让 yolov5 开启混合精度：适用于虽然通过了 yolov5 的 AMP 检查、但 FP16 训练后期损失变成 NaN 的 GPU（GTX 16xx、Quadro T 系列）。每张图片约占用两倍显存，在有张量核心的 GPU 上步骤更慢。</translation>
    </message>
    <message>
      <source>Train it first (or let it finish an epoch), or choose another run.</source>
      <translation>请先训练它（或至少完成一个轮次），或选择另一次训练。</translation>
    </message>
    <message>
      <source>Train more (Train more / yolostudio train --epochs {n}).</source>
      <translation>继续训练（继续训练 / yolostudio train --epochs {n}）。</translation>
    </message>
    <message>
      <source>Train on letterboxed rectangles instead of squares: less padding, faster for wide images, but images are no longer shuffled (can cost accuracy).</source>
      <translation>用加边框的矩形而不是正方形训练：填充更少，宽图更快，但图片不再打乱（可能损失精度）。</translation>
    </message>
    <message>
      <source>Train on the CPU (device cpu), or see the Environment page for why no GPU is visible.</source>
      <translation>请在 CPU 上训练（设备 cpu），或到环境页面查看为什么看不到 GPU。</translation>
    </message>
    <message>
      <source>Train on the slice with a batch that fits it (batch -1: yolov5's AutoBatch measures it). For the whole GPU, its administrator turns MIG off: sudo nvidia-smi -i {index} -mig 0 (no process may use the GPU; a GPU reset follows).</source>
      <translation>在该切片上用适合它的批大小训练（batch -1：由 yolov5 的 AutoBatch 测量）。若要使用整块 GPU，请由其管理员关闭 MIG：sudo nvidia-smi -i {index} -mig 0（不能有进程在使用该 GPU；之后会重置 GPU）。</translation>
    </message>
    <message>
      <source>Train on the {good} alone: the {weak} is far weaker</source>
      <translation>只用 {good} 训练：{weak} 弱得多</translation>
    </message>
    <message>
      <source>Train on: {path}</source>
      <translation>用于训练：{path}</translation>
    </message>
    <message>
      <source>Train with: yolostudio train {path}</source>
      <translation>训练：yolostudio train {path}</translation>
    </message>
    <message>
      <source>Train without mixed precision (AMP)</source>
      <translation>不使用混合精度（AMP）训练</translation>
    </message>
    <message>
      <source>Trained from scratch on {n} images</source>
      <translation>在 {n} 张图片上从零训练</translation>
    </message>
    <message>
      <source>Training</source>
      <translation>训练中</translation>
    </message>
    <message>
      <source>Training does not read it, but validating on the test split ('val.py --task test') fails.</source>
      <translation>训练不会读取它，但在测试集上验证（'val.py --task test'）会失败。</translation>
    </message>
    <message>
      <source>Training does not read it, but validating on the test split fails with 'No images found'.</source>
      <translation>训练不会读取它，但在测试集上验证会以 'No images found' 失败。</translation>
    </message>
    <message>
      <source>Training from the model YAML (no pretrained weights chosen).</source>
      <translation>从模型 YAML 训练（未选择预训练权重）。</translation>
    </message>
    <message>
      <source>Training gets a MIG slice of the {gpu}: {profile}, {fraction} and {memory}</source>
      <translation>训练得到的是 {gpu} 的一个 MIG 切片：{profile}，{fraction}，{memory}</translation>
    </message>
    <message>
      <source>Training images (when evaluated)</source>
      <translation>训练图片（评估时）</translation>
    </message>
    <message>
      <source>Training is running ({runs}) with this PyTorch; replacing it now would break the run. Stop it (or let it finish), then repair.</source>
      <translation>正在用这个 PyTorch 训练（{runs}）；现在替换会破坏训练。请先停止训练（或等它结束），再修复。</translation>
    </message>
    <message>
      <source>Training needs PyTorch; importing it failed.</source>
      <translation>训练需要 PyTorch；导入它失败了。</translation>
    </message>
    <message>
      <source>Training on the prepared copy of {source} (images resized to {imgsz} px; {state}): {copy}</source>
      <translation>使用 {source} 的预处理副本训练（图片缩放到 {imgsz} 像素；{state}）：{copy}</translation>
    </message>
    <message>
      <source>Training on {data} as given: the prepared copy {config} asks for is of {source}.</source>
      <translation>按给定的 {data} 训练：{config} 要求的预处理副本属于 {source}。</translation>
    </message>
    <message>
      <source>Training processes (DDP ranks) on this machine: 0 = one per GPU named in Device (one on the CPU). A run with more than one goes through PyTorch's launcher (torch.distributed.run), never DataParallel; the batch is split between them and every process starts its own workers.</source>
      <translation>本机的训练进程数（DDP 进程）：0 = 设备中每块 GPU 一个（CPU 上为一个）。多于一个时通过 PyTorch 的启动器（torch.distributed.run）运行，从不使用 DataParallel；批大小在它们之间平分，每个进程各自启动加载进程。</translation>
    </message>
    <message>
      <source>Training runs on the CPU although this machine has a GPU</source>
      <translation>这台机器有 GPU，训练却在 CPU 上进行</translation>
    </message>
    <message>
      <source>Training takes about {total} on this machine's CPU. A GPU, a smaller image size or the quick test goal shortens it.</source>
      <translation>在本机 CPU 上训练约需 {total}。使用 GPU、更小的图片尺寸或“快速测试”目标可以缩短。</translation>
    </message>
    <message>
      <source>Training takes about {total} on this machine.</source>
      <translation>在本机上训练约需 {total}。</translation>
    </message>
    <message>
      <source>Training waited for data {share} of the time.</source>
      <translation>训练有 {share} 的时间在等待数据。</translation>
    </message>
    <message>
      <source>Training waits for the CPU to prepare images</source>
      <translation>训练在等待 CPU 准备图片</translation>
    </message>
    <message>
      <source>Training waits for the data loader; cores are idle</source>
      <translation>训练在等待数据加载；CPU 核心却有空闲</translation>
    </message>
    <message>
      <source>Training waits for the disk</source>
      <translation>训练在等待磁盘</translation>
    </message>
    <message>
      <source>Training would not use the GPU — here is why: {reason}</source>
      <translation>训练不会使用 GPU——原因：{reason}</translation>
    </message>
    <message>
      <source>Training would run on the CPU — here is why: {reason}</source>
      <translation>训练会在 CPU 上进行——原因：{reason}</translation>
    </message>
    <message>
      <source>Training would run on the CPU.</source>
      <translation>训练将在 CPU 上运行。</translation>
    </message>
    <message>
      <source>Try again later.</source>
      <translation>请稍后再试。</translation>
    </message>
    <message>
      <source>Try another ONNX opset (17 is the most widely supported).</source>
      <translation>请尝试其他 ONNX opset（17 的支持最广）。</translation>
    </message>
    <message>
      <source>Turn on Synchronised BatchNorm (--sync-bn), or use a larger batch.</source>
      <translation>请开启同步 BatchNorm（--sync-bn），或使用更大的批大小。</translation>
    </message>
    <message>
      <source>Unknown CUDA build {tag!r}: choose one of {tags}, or --cpu.</source>
      <translation>未知的 CUDA 版本 {tag!r}：请从 {tags} 中选择，或使用 --cpu。</translation>
    </message>
    <message>
      <source>Unknown format {fmt}; one of: {formats}.</source>
      <translation>未知格式 {fmt}；可选：{formats}。</translation>
    </message>
    <message>
      <source>Unknown format {format}; choose from {formats}.</source>
      <translation>未知格式 {format}；可选：{formats}。</translation>
    </message>
    <message>
      <source>Unknown image format {fmt}: use jpg or png.</source>
      <translation>未知的图片格式 {fmt}：请使用 jpg 或 png。</translation>
    </message>
    <message>
      <source>Unreadable</source>
      <translation>无法读取</translation>
    </message>
    <message>
      <source>Up to date: {n} images at {imgsz} px, nothing to do.</source>
      <translation>已是最新：{n} 张图片，{imgsz} 像素，无需处理。</translation>
    </message>
    <message>
      <source>Update the NVIDIA driver on the host to {driver} or newer (this {container} container uses the host's driver; nothing installed inside it changes that), then restart the container.</source>
      <translation>在宿主机上把 NVIDIA 驱动更新到 {driver} 或更新版本（这个 {container} 容器使用宿主机的驱动；在容器里安装任何东西都改变不了它），然后重启容器。</translation>
    </message>
    <message>
      <source>Upgrading the YOLO Studio installed in {prefix} in place.</source>
      <translation>正在原地升级安装在 {prefix} 中的 YOLO Studio。</translation>
    </message>
    <message>
      <source>Use --workers 4; if WinError 1455 appears, enlarge the page file (System → Advanced → Performance → Virtual memory).</source>
      <translation>使用 --workers 4；如果出现 WinError 1455，请增大页面文件（系统 → 高级 → 性能 → 虚拟内存）。</translation>
    </message>
    <message>
      <source>Use a batch that is a multiple of {world}: {suggestions}.</source>
      <translation>请使用 {world} 的整数倍作为批大小：{suggestions}。</translation>
    </message>
    <message>
      <source>Use a model YAML packaged with yolov5 (yolov5s.yaml …), or confirm that you trust this file (--trust-model).</source>
      <translation>请使用 yolov5 自带的模型 YAML（yolov5s.yaml …），或确认您信任此文件（--trust-model）。</translation>
    </message>
    <message>
      <source>Use a plain file name ending in .pt.</source>
      <translation>请使用以 .pt 结尾的普通文件名。</translation>
    </message>
    <message>
      <source>Use about {per_rank} workers (the cores divided by the processes).</source>
      <translation>请使用约 {per_rank} 个加载进程（核心数除以进程数）。</translation>
    </message>
    <message>
      <source>Use cpu, 0, or a list like 0,1 (empty picks the first GPU).</source>
      <translation>请使用 cpu、0 或 0,1 这样的列表（留空则选第一块 GPU）。</translation>
    </message>
    <message>
      <source>Use cpu, 0, or a list like 0,1.</source>
      <translation>请使用 cpu、0 或 0,1 这样的列表。</translation>
    </message>
    <message>
      <source>Use fewer folds (--kfold 2), or add training images.</source>
      <translation>请用更少的折数（--kfold 2），或添加训练图片。</translation>
    </message>
    <message>
      <source>Use hyp.scratch-low.yaml, or the path of a hyp YAML.</source>
      <translation>请使用 hyp.scratch-low.yaml，或超参数 YAML 的路径。</translation>
    </message>
    <message>
      <source>Use letters, digits, '-', '_' or '.', without slashes.</source>
      <translation>请使用字母、数字、'-'、'_' 或 '.'，不要包含斜杠。</translation>
    </message>
    <message>
      <source>Use one of yolov5n.yaml … yolov5x.yaml, or the path of a model YAML.</source>
      <translation>请使用 yolov5n.yaml … yolov5x.yaml 之一，或模型 YAML 的路径。</translation>
    </message>
    <message>
      <source>Use the command machine 0 printed for this machine (it has --rdzv-id).</source>
      <translation>请使用第 0 台机器为本机打印的命令（其中带有 --rdzv-id）。</translation>
    </message>
    <message>
      <source>Val images / objects</source>
      <translation>验证图片 / 目标</translation>
    </message>
    <message>
      <source>Val split fingerprint (SHA-256)</source>
      <translation>验证集指纹（SHA-256）</translation>
    </message>
    <message>
      <source>Val split unchanged since the evaluation</source>
      <translation>评估后验证集未变</translation>
    </message>
    <message>
      <source>Validate only at the end</source>
      <translation>只在最后验证</translation>
    </message>
    <message>
      <source>Validating the epoch…</source>
      <translation>正在验证本轮…</translation>
    </message>
    <message>
      <source>Values outside [0, 1] (from {low} to {high}). yolov5 drops the image as corrupt ('{quote}'). {hint}</source>
      <translation>数值超出 [0, 1]（从 {low} 到 {high}）。yolov5 会把图片当作损坏丢弃（'{quote}'）。{hint}</translation>
    </message>
    <message>
      <source>Vary the image size ±50 % per batch: more robust to object size, but a 1.5x batch costs about 2.25x time and GPU memory.</source>
      <translation>每个批次把图片尺寸在 ±50 % 之间变化：对目标大小更鲁棒，但 1.5 倍尺寸的批次要花约 2.25 倍的时间和显存。</translation>
    </message>
    <message>
      <source>Verdict</source>
      <translation>结论</translation>
    </message>
    <message>
      <source>Verified against PyTorch</source>
      <translation>已与 PyTorch 核对</translation>
    </message>
    <message>
      <source>Version it was trained on</source>
      <translation>训练所用的版本</translation>
    </message>
    <message>
      <source>WARN</source>
      <translation>警告</translation>
    </message>
    <message>
      <source>WSL provides the NVIDIA library from the Windows driver in /usr/lib/wsl/lib; without it the app cannot read GPU utilisation or check the driver.</source>
      <translation>WSL 通过 Windows 驱动在 /usr/lib/wsl/lib 中提供 NVIDIA 库；没有它，应用无法读取 GPU 利用率，也无法检查驱动。</translation>
    </message>
    <message>
      <source>Wait for it to end, or stop it.</source>
      <translation>请等它结束，或停止它。</translation>
    </message>
    <message>
      <source>Wait for it to finish, or cancel it there.</source>
      <translation>请等它完成，或在那边取消。</translation>
    </message>
    <message>
      <source>Weights file</source>
      <translation>权重文件</translation>
    </message>
    <message>
      <source>Weights file not found: {path}</source>
      <translation>找不到权重文件：{path}</translation>
    </message>
    <message>
      <source>Weights must be a .pt file: {path}</source>
      <translation>权重必须是 .pt 文件：{path}</translation>
    </message>
    <message>
      <source>What to change for the next run:</source>
      <translation>下一次训练应改变的：</translation>
    </message>
    <message>
      <source>Where to train: empty picks the first GPU, else the CPU; 'cpu'; '0' for the first GPU; '0,1' for two GPUs. The CPU is one to two orders of magnitude slower.</source>
      <translation>在哪里训练：留空选择第一块 GPU，没有则用 CPU；'cpu'；'0' 表示第一块 GPU；'0,1' 表示两块 GPU（多卡训练）。CPU 要慢一到两个数量级。</translation>
    </message>
    <message>
      <source>Which machine? Give --machine NAME ('yolostudio machine list' shows them).</source>
      <translation>哪台机器？请给出 --machine NAME（'yolostudio machine list' 会列出它们）。</translation>
    </message>
    <message>
      <source>Windows cannot commit the memory this training needs</source>
      <translation>Windows 无法提交本次训练所需的内存</translation>
    </message>
    <message>
      <source>Windows commit limit (page file)</source>
      <translation>Windows 提交上限（页面文件）</translation>
    </message>
    <message>
      <source>Windows could not load {dll} (WinError {code}): PyTorch's DLLs need the Microsoft Visual C++ Redistributable (vcruntime140.dll, msvcp140.dll, vcruntime140_1.dll), which is missing or too old.</source>
      <translation>Windows 无法加载 {dll}（WinError {code}）：PyTorch 的 DLL 需要 Microsoft Visual C++ Redistributable（vcruntime140.dll、msvcp140.dll、vcruntime140_1.dll），它缺失或版本太旧。</translation>
    </message>
    <message>
      <source>Windows data loading</source>
      <translation>Windows 数据加载</translation>
    </message>
    <message>
      <source>Windows long paths are off and the deepest installed file would be {length} characters long (the limit is {limit}): pip would fail half-way. Either enable long paths (in a PowerShell run as administrator: {enable}) and run the installer again, or install to a shorter folder: install.bat --prefix C:\YOLOStudio</source>
      <translation>Windows 长路径未开启，而安装的最深文件路径将有 {length} 个字符（上限为 {limit}）：pip 会中途失败。可以开启长路径（在以管理员身份运行的 PowerShell 中执行：{enable}）后重新运行安装程序，或安装到更短的文件夹：install.bat --prefix C:\YOLOStudio</translation>
    </message>
    <message>
      <source>Windows long paths are off; the install fits with {spare} characters to spare. If pip reports a missing file or WinError 206, enable long paths ({enable}) or use --prefix C:\YOLOStudio.</source>
      <translation>Windows 长路径未开启；本次安装还剩 {spare} 个字符的余量。如果 pip 报告文件缺失或 WinError 206，请开启长路径（{enable}）或使用 --prefix C:\YOLOStudio。</translation>
    </message>
    <message>
      <source>Windows may refuse memory to {count} data-loader workers (WinError 1455)</source>
      <translation>Windows 可能无法为 {count} 个数据加载进程 分配内存（WinError 1455）</translation>
    </message>
    <message>
      <source>Windows reserves it for a device (CON, PRN, AUX, NUL, COM1–COM9, LPT1–LPT9)</source>
      <translation>Windows 将它保留为设备名（CON、PRN、AUX、NUL、COM1–COM9、LPT1–LPT9）</translation>
    </message>
    <message>
      <source>Windows starts each data-loader worker as a new process (spawn), which re-imports torch: each costs seconds and memory, and many of them can fail with 'WinError 1455: the paging file is too small'.</source>
      <translation>Windows 以新进程（spawn）启动每个数据加载进程，并重新导入 torch：每个都要耗费数秒和内存，数量多了可能以 'WinError 1455: the paging file is too small' 失败。</translation>
    </message>
    <message>
      <source>Windows starts each worker as a new process (at most {n})</source>
      <translation>Windows 以新进程启动每个加载进程（最多 {n} 个）</translation>
    </message>
    <message>
      <source>Windows: keep data-loader workers modest</source>
      <translation>Windows：数据加载进程不宜过多</translation>
    </message>
    <message>
      <source>With driver {needed} or newer, a build for {left_out} would run (then run the installer again).</source>
      <translation>驱动为 {needed} 或更新版本时，就有适用于 {left_out} 的构建（之后请再次运行安装程序）。</translation>
    </message>
    <message>
      <source>With several GPUs, compute BatchNorm statistics over every GPU's images instead of each GPU's own: steadier training when each GPU gets 8 images or fewer, for a little time per step. GPUs only (CUDA).</source>
      <translation>多块 GPU 时，用所有 GPU 的图片计算 BatchNorm 统计量，而不是各自的图片：每块 GPU 每步只有 8 张或更少图片时训练更稳定，每步稍慢一点。仅限 GPU（CUDA）。</translation>
    </message>
    <message>
      <source>Without a usable NVIDIA GPU, yolov5 trains on the CPU — fine for the demo, one to two orders of magnitude slower for real datasets.</source>
      <translation>没有可用的 NVIDIA GPU 时，yolov5 会在 CPU 上训练——跑演示没问题，但对真实数据集要慢一到两个数量级。</translation>
    </message>
    <message>
      <source>Without cuDNN the convolutions run on slower kernels: training is several times slower.</source>
      <translation>没有 cuDNN 时卷积会使用较慢的内核：训练会慢好几倍。</translation>
    </message>
    <message>
      <source>Workers</source>
      <translation>数据加载进程</translation>
    </message>
    <message>
      <source>Workers are per process: {nproc} processes x {workers} workers = {total} loader processes for {cores} CPU cores.</source>
      <translation>加载进程数是按训练进程计的：{nproc} 个进程 x {workers} 个加载进程 = {total} 个加载进程，而只有 {cores} 个 CPU 核心。</translation>
    </message>
    <message>
      <source>Writing</source>
      <translation>正在写入</translation>
    </message>
    <message>
      <source>Written by YOLO Studio on {date} from the files stored in {folder}.</source>
      <translation>由 YOLO Studio 于 {date} 根据 {folder} 中保存的文件写出。</translation>
    </message>
    <message>
      <source>YAML syntax error at line {line}, column {column}: {problem}</source>
      <translation>YAML 语法错误，第 {line} 行第 {column} 列：'{problem}'</translation>
    </message>
    <message>
      <source>YOLO Studio and its other packages</source>
      <translation>YOLO Studio 及其他软件包</translation>
    </message>
    <message>
      <source>YOLO Studio install plan{note}</source>
      <translation>YOLO Studio 安装计划{note}</translation>
    </message>
    <message>
      <source>YOLO Studio is installed on {name} ({command}). 'yolostudio machine check {name}' runs the doctor there.</source>
      <translation>YOLO Studio 已安装在 {name} 上（{command}）。'yolostudio machine check {name}' 会在那里运行环境检查。</translation>
    </message>
    <message>
      <source>YOLO Studio is not installed in {prefix}; nothing to remove.</source>
      <translation>{prefix} 中没有安装 YOLO Studio；无需删除。</translation>
    </message>
    <message>
      <source>YOLO Studio is not installed on {name} ('{command}' was not found there).</source>
      <translation>{name} 上没有安装 YOLO Studio（那里找不到 '{command}'）。</translation>
    </message>
    <message>
      <source>YOLO Studio removed from {prefix}: {count} items.{kept}</source>
      <translation>已从 {prefix} 删除 YOLO Studio：{count} 项。{kept}</translation>
    </message>
    <message>
      <source>YOLO Studio runs from the system's Python ({python}), not from its own environment: replacing PyTorch there could break other programs. Install the app with its installer (it makes its own environment), or run the command yourself if this Python is only for YOLO Studio.</source>
      <translation>YOLO Studio 运行在系统的 Python（{python}）上，而不是它自己的环境：在那里替换 PyTorch 可能破坏其他程序。请用安装程序安装应用（它会创建自己的环境），或者如果这个 Python 只用于 YOLO Studio，请自行运行该命令。</translation>
    </message>
    <message>
      <source>YOLO Studio trains with the yolov5 package's own trainer.</source>
      <translation>YOLO Studio 使用 yolov5 包自带的训练器进行训练。</translation>
    </message>
    <message>
      <source>YOLO Studio {version} installed in {prefix} with PyTorch {torch} ({why}); open it from {where}{desktop}, or run {cli}.</source>
      <translation>YOLO Studio {version} 已安装在 {prefix}，PyTorch 为 {torch}（{why}）；从{where}{desktop}打开它，或运行 {cli}。</translation>
    </message>
    <message>
      <source>YOLO Studio: train and export YOLOv5 models.</source>
      <translation>YOLO Studio：训练并导出 YOLOv5 模型。</translation>
    </message>
    <message>
      <source>Your images are {side} px on the long side: a larger size only upscales them.</source>
      <translation>你的图片长边为 {side} 像素：更大的尺寸只会放大它们。</translation>
    </message>
    <message>
      <source>[{n}/{total}] {name}</source>
      <translation>[{n}/{total}] {name}</translation>
    </message>
    <message>
      <source>a CPU-only PyTorch</source>
      <translation>仅支持 CPU 的 PyTorch</translation>
    </message>
    <message>
      <source>a Jetson ({what}): its GPU driver is part of Jetson Linux, and NVIDIA's desktop driver checks do not apply</source>
      <translation>这是一台 Jetson（{what}）：它的 GPU 驱动属于 Jetson Linux，NVIDIA 台式机驱动的检查不适用</translation>
    </message>
    <message>
      <source>a Python script</source>
      <translation>一段 Python 脚本</translation>
    </message>
    <message>
      <source>a URL to fetch and unzip</source>
      <translation>一个要下载并解压的网址</translation>
    </message>
    <message>
      <source>a box close to the confidence threshold (confidence {conf:.2f})</source>
      <translation>有一个框接近置信度阈值（置信度 {conf:.2f}）</translation>
    </message>
    <message>
      <source>a category id</source>
      <translation>一个类别 id</translation>
    </message>
    <message>
      <source>a finite number</source>
      <translation>有限数值</translation>
    </message>
    <message>
      <source>a folder or file path (text without control characters)</source>
      <translation>文件夹或文件路径（不含控制字符的文本）</translation>
    </message>
    <message>
      <source>a label may be missing</source>
      <translation>可能漏标</translation>
    </message>
    <message>
      <source>a link to {target}, outside the source: left out (an import takes only the source's own files)</source>
      <translation>指向源文件夹之外 {target} 的链接：已略去（导入只取源文件夹自己的文件）</translation>
    </message>
    <message>
      <source>a list ([…])</source>
      <translation>一个列表（[…]）</translation>
    </message>
    <message>
      <source>a mirror of PyTorch's wheel index holding cu132/, cu130/, cu126/ and cpu/ folders</source>
      <translation>PyTorch 包索引的镜像，包含 cu132/、cu130/、cu126/ 和 cpu/ 文件夹</translation>
    </message>
    <message>
      <source>a multiple of 32</source>
      <translation>32 的倍数</translation>
    </message>
    <message>
      <source>a part</source>
      <translation>一部分</translation>
    </message>
    <message>
      <source>a part of its compute</source>
      <translation>其部分算力</translation>
    </message>
    <message>
      <source>a point is not a pair of numbers</source>
      <translation>有一个点不是一对数字</translation>
    </message>
    <message>
      <source>a possible object just below the threshold (confidence {conf:.2f})</source>
      <translation>可能有一个物体略低于阈值（置信度 {conf:.2f}）</translation>
    </message>
    <message>
      <source>a run (its best weights), a .pt or an exported model (.onnx, .torchscript, .engine, OpenVINO)</source>
      <translation>一次训练（其最佳权重）、一个 .pt 或一个导出的模型（.onnx、.torchscript、.engine、OpenVINO）</translation>
    </message>
    <message>
      <source>a run (its best.pt) or a .pt file</source>
      <translation>一次训练（用它的 best.pt）或一个 .pt 文件</translation>
    </message>
    <message>
      <source>a run of the workspace (its name or folder)</source>
      <translation>工作区中的一次训练（名称或文件夹）</translation>
    </message>
    <message>
      <source>a shell command</source>
      <translation>一条 shell 命令</translation>
    </message>
    <message>
      <source>a short name for the machine</source>
      <translation>机器的简短名称</translation>
    </message>
    <message>
      <source>a text</source>
      <translation>一段文本</translation>
    </message>
    <message>
      <source>a whole number</source>
      <translation>整数</translation>
    </message>
    <message>
      <source>a whole number of images, 1 or more</source>
      <translation>图片数，须为不小于 1 的整数</translation>
    </message>
    <message>
      <source>a {shape} has no area to box</source>
      <translation>{shape} 没有面积，无法变成框</translation>
    </message>
    <message>
      <source>a {shape} with {n} points</source>
      <translation>只有 {n} 个点的 {shape}</translation>
    </message>
    <message>
      <source>about {duration} ({basis})</source>
      <translation>约 {duration}（{basis}）</translation>
    </message>
    <message>
      <source>accept the model's unreviewed boxes from this confidence (default: the queue's)</source>
      <translation>接受未审核的模型框所需的最低置信度（默认：队列的阈值）</translation>
    </message>
    <message>
      <source>accept the server's host key with this fingerprint (compare it with the server's)</source>
      <translation>接受指纹为此值的服务器主机密钥（请与服务器上的指纹核对）</translation>
    </message>
    <message>
      <source>accuracy from</source>
      <translation>精度来源</translation>
    </message>
    <message>
      <source>activation: {value} is not one of torch's activations (nn.SiLU(), nn.LeakyReLU(0.1) …); yolov5 would run it as Python code.</source>
      <translation>activation: {value} 不是 torch 的激活函数（nn.SiLU()、nn.LeakyReLU(0.1) …）；yolov5 会把它当作 Python 代码运行。</translation>
    </message>
    <message>
      <source>add a .pt you have (asks whether you trust it)</source>
      <translation>添加你已有的 .pt（会询问是否信任）</translation>
    </message>
    <message>
      <source>add a class {cls} box</source>
      <translation>添加一个类别 {cls} 的框</translation>
    </message>
    <message>
      <source>add a machine reached by SSH (its host key is shown for you to accept)</source>
      <translation>添加一台通过 SSH 连接的机器（会显示它的主机密钥，由你确认接受）</translation>
    </message>
    <message>
      <source>add the machine with 'yolostudio machine add {name} --ssh {dest}' to see its fingerprint and accept it</source>
      <translation>用 'yolostudio machine add {name} --ssh {dest}' 添加这台机器，查看它的指纹并接受</translation>
    </message>
    <message>
      <source>all classes</source>
      <translation>所有类别</translation>
    </message>
    <message>
      <source>allow a model YAML whose strings yolov5 would run as code (anything beyond its layers, torch activations and literals)</source>
      <translation>允许使用其字符串会被 yolov5 当作代码运行的模型 YAML（超出其网络层、torch 激活函数和字面量的任何内容）</translation>
    </message>
    <message>
      <source>allow a model definition whose strings yolov5 would run as code (the run was started with such a model YAML)</source>
      <translation>允许使用其字符串会被 yolov5 当作代码运行的模型定义（该训练是用这样的模型 YAML 启动的）</translation>
    </message>
    <message>
      <source>allow loading a .pt from outside your runs (a .pt is a pickle and can run code)</source>
      <translation>允许加载训练目录以外的 .pt（.pt 是 pickle 文件，可能执行代码）</translation>
    </message>
    <message>
      <source>allow the run's model YAML whose strings yolov5 would run as code (held-out trainings build the run's model)</source>
      <translation>允许使用其中字符串会被 yolov5 当作代码运行的训练模型 YAML（留出训练会按该训练的模型构建）</translation>
    </message>
    <message>
      <source>also put a shortcut on the desktop</source>
      <translation>同时在桌面放一个快捷方式</translation>
    </message>
    <message>
      <source>also time the dataset's disk and check RAM for --cache ram</source>
      <translation>同时测试数据集所在磁盘的速度，并检查 --cache ram 所需内存</translation>
    </message>
    <message>
      <source>an existing Ray cluster (ray start --head …); default: RAY_ADDRESS, else a local instance on this machine only</source>
      <translation>已有的 Ray 集群（ray start --head …）；默认：RAY_ADDRESS，否则只在本机启动一个本地实例</translation>
    </message>
    <message>
      <source>an export of the run to predict with (.onnx, .torchscript, .engine; default: its best.pt)</source>
      <translation>用于预测的该训练的导出模型（.onnx、.torchscript、.engine；默认：其 best.pt）</translation>
    </message>
    <message>
      <source>an image, a folder, a glob, a video, a camera index (0) or an rtsp:// / http:// stream</source>
      <translation>一张图片、一个文件夹、一个通配符、一个视频、一个摄像头编号（0）或一个 rtsp:// / http:// 视频流</translation>
    </message>
    <message>
      <source>an object ({…})</source>
      <translation>一个对象（{…}）</translation>
    </message>
    <message>
      <source>an object with a class name</source>
      <translation>一个带类别名称的对象</translation>
    </message>
    <message>
      <source>an object with an image path and a kind</source>
      <translation>一个带图片路径和类型的对象</translation>
    </message>
    <message>
      <source>an unknown NVML error</source>
      <translation>未知的 NVML 错误</translation>
    </message>
    <message>
      <source>anchors: {value} is neither a whole number of anchors per level (3) nor a list of levels of width, height pairs ([[10,13, 16,30, 33,23], …]); yolov5 would fail with it when training starts.</source>
      <translation>anchors: {value} 既不是每层锚框的整数个数（3），也不是由宽、高数对组成的各层列表（[[10,13, 16,30, 33,23], …]）；用它训练时 yolov5 会在开始时失败。</translation>
    </message>
    <message>
      <source>annotation {id}: its image_id {image} is not among the file's images</source>
      <translation>标注 {id}：它的 image_id {image} 不在该文件的图片列表中</translation>
    </message>
    <message>
      <source>another machine's saved facts (yolostudio doctor --save-facts); implies --no-measure</source>
      <translation>另一台机器保存的检测信息（yolostudio doctor --save-facts）；隐含 --no-measure</translation>
    </message>
    <message>
      <source>another ssh config file (as ssh -F)</source>
      <translation>另一个 ssh 配置文件（同 ssh -F）</translation>
    </message>
    <message>
      <source>as asked with --cpu</source>
      <translation>按 --cpu 的要求</translation>
    </message>
    <message>
      <source>as asked with --cuda</source>
      <translation>按 --cuda 的要求</translation>
    </message>
    <message>
      <source>as many as the budget allows</source>
      <translation>预算允许的最多次数</translation>
    </message>
    <message>
      <source>ask a running run to stop gracefully</source>
      <translation>请求正在进行的训练平稳停止</translation>
    </message>
    <message>
      <source>augment each batch on the GPU (--gpu-augment on): the loader's workers then only decode, about a third of their CPU time per image</source>
      <translation>在 GPU 上按批次做数据增强（--gpu-augment on）：加载器的工作进程只需解码，每张图片约只需原来三分之一的 CPU 时间</translation>
    </message>
    <message>
      <source>auto</source>
      <translation>自动</translation>
    </message>
    <message>
      <source>auto-label new images with a run's model, review the proposals, accept them into a dataset</source>
      <translation>用某次训练的模型自动标注新图片，审核建议，并把它们接受进数据集</translation>
    </message>
    <message>
      <source>available RAM</source>
      <translation>可用内存</translation>
    </message>
    <message>
      <source>balanced</source>
      <translation>均衡</translation>
    </message>
    <message>
      <source>batch probe</source>
      <translation>批大小探测</translation>
    </message>
    <message>
      <source>batch size the checks assume (default 16)</source>
      <translation>检查时假定的批大小（默认 16）</translation>
    </message>
    <message>
      <source>batch upload</source>
      <translation>批次上传</translation>
    </message>
    <message>
      <source>batch {b} fits ({gb:.1f} GB peak); yolov5 AutoBatch: {auto}</source>
      <translation>批大小 {b} 放得下（峰值 {gb:.1f} GB）；yolov5 AutoBatch：{auto}</translation>
    </message>
    <message>
      <source>best F1 {f1} at confidence {conf}</source>
      <translation>最佳 F1 {f1}，置信度 {conf}</translation>
    </message>
    <message>
      <source>best accuracy</source>
      <translation>最高精度</translation>
    </message>
    <message>
      <source>bootstrap resamples of the images (default: {n})</source>
      <translation>对图片做自助重采样的次数（默认：{n}）</translation>
    </message>
    <message>
      <source>box</source>
      <translation>框</translation>
    </message>
    <message>
      <source>box sizes unknown</source>
      <translation>框大小未知</translation>
    </message>
    <message>
      <source>boxes</source>
      <translation>框数</translation>
    </message>
    <message>
      <source>bring a run back from a machine (weights, evaluations, exports), verified</source>
      <translation>从一台机器取回训练（权重、评估、导出），并逐个校验</translation>
    </message>
    <message>
      <source>cache estimate</source>
      <translation>缓存估算</translation>
    </message>
    <message>
      <source>cache size</source>
      <translation>缓存大小</translation>
    </message>
    <message>
      <source>calibrating INT8 on the training images</source>
      <translation>正在用训练图片校准 INT8</translation>
    </message>
    <message>
      <source>cannot read facts file {path}: {reason}</source>
      <translation>无法读取检测信息文件 {path}：{reason}</translation>
    </message>
    <message>
      <source>cannot read {path}: {reason}</source>
      <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
      <source>cgroup quota</source>
      <translation>cgroup 配额</translation>
    </message>
    <message>
      <source>change class {old} to {new}</source>
      <translation>把类别 {old} 改为 {new}</translation>
    </message>
    <message>
      <source>changed on disk — remove and get it again</source>
      <translation>磁盘上已被改动 — 请删除后重新获取</translation>
    </message>
    <message>
      <source>check a dataset's data.yaml, images and labels</source>
      <translation>检查数据集的 data.yaml、图片和标签</translation>
    </message>
    <message>
      <source>check that 'ssh {dest}' works in a terminal without a password prompt (a key, or ssh-agent)</source>
      <translation>请确认在终端里 'ssh {dest}' 不需要输入密码就能连接（使用密钥或 ssh-agent）</translation>
    </message>
    <message>
      <source>check the GPU driver, CUDA, PyTorch, memory and disks; say what to fix</source>
      <translation>检查 GPU 驱动、CUDA、PyTorch、内存和磁盘；说明需要修复什么</translation>
    </message>
    <message>
      <source>check the power supply and the GPU's power connectors</source>
      <translation>检查电源和 GPU 的供电接口</translation>
    </message>
    <message>
      <source>checking the dataset's folders</source>
      <translation>正在检查数据集的文件夹</translation>
    </message>
    <message>
      <source>checking yolov5's label caches</source>
      <translation>正在检查 yolov5 的标签缓存</translation>
    </message>
    <message>
      <source>class</source>
      <translation>类别</translation>
    </message>
    <message>
      <source>class {name}: {n} boxes left out as asked</source>
      <translation>类别 {name}：按要求略去了 {n} 个框</translation>
    </message>
    <message>
      <source>cleanlab scores their labels under {t} (a missing label, a wrong class or a sloppy box).</source>
      <translation>cleanlab 给它们的标注打分低于 {t}（漏标、类别错误或框不准）。</translation>
    </message>
    <message>
      <source>clip coordinates slightly outside [0, 1] to the edge</source>
      <translation>把略超出 [0, 1] 的坐标裁到边缘</translation>
    </message>
    <message>
      <source>commit available</source>
      <translation>可提交</translation>
    </message>
    <message>
      <source>commit limit</source>
      <translation>提交限制</translation>
    </message>
    <message>
      <source>commit limit (RAM + page file)</source>
      <translation>提交上限（内存 + 页面文件）</translation>
    </message>
    <message>
      <source>completed</source>
      <translation>已完成</translation>
    </message>
    <message>
      <source>compute capability</source>
      <translation>计算能力</translation>
    </message>
    <message>
      <source>compute capability ≥ 7.0</source>
      <translation>计算能力 ≥ 7.0</translation>
    </message>
    <message>
      <source>compute mode</source>
      <translation>计算模式</translation>
    </message>
    <message>
      <source>compute processes</source>
      <translation>计算进程</translation>
    </message>
    <message>
      <source>confidence at which a box is proposed (default: {conf})</source>
      <translation>建议一个框所需的置信度（默认：{conf}）</translation>
    </message>
    <message>
      <source>confidence threshold (default: {v})</source>
      <translation>置信度阈值（默认：{v}）</translation>
    </message>
    <message>
      <source>confirmed by a person</source>
      <translation>经人工确认</translation>
    </message>
    <message>
      <source>container</source>
      <translation>容器</translation>
    </message>
    <message>
      <source>continue the interrupted search in &lt;workspace&gt;/tune/NAME</source>
      <translation>继续 &lt;workspace&gt;/tune/NAME 中被中断的搜索</translation>
    </message>
    <message>
      <source>convert a Pascal VOC, LabelMe, COCO or YOLO export into a YOLO dataset with train/val splits that do not leak</source>
      <translation>把 Pascal VOC、LabelMe、COCO 或 YOLO 导出转换成 YOLO 数据集，训练/验证划分互不泄漏</translation>
    </message>
    <message>
      <source>copy the images (default: hard links when on the same file system)</source>
      <translation>复制图片（默认：在同一文件系统上时使用硬链接）</translation>
    </message>
    <message>
      <source>correct</source>
      <translation>正确</translation>
    </message>
    <message>
      <source>cpu or a GPU index (default: GPU when needed)</source>
      <translation>cpu 或 GPU 编号（默认：需要时用 GPU）</translation>
    </message>
    <message>
      <source>cpu or a GPU index (default: yolov5's choice)</source>
      <translation>cpu 或 GPU 编号（默认：由 yolov5 选择）</translation>
    </message>
    <message>
      <source>cuDNN</source>
      <translation>cuDNN</translation>
    </message>
    <message>
      <source>cuDNN enabled</source>
      <translation>cuDNN 已启用</translation>
    </message>
    <message>
      <source>cuDNN is not available to PyTorch</source>
      <translation>PyTorch 无法使用 cuDNN</translation>
    </message>
    <message>
      <source>cuDNN version</source>
      <translation>cuDNN 版本</translation>
    </message>
    <message>
      <source>cuDNN {version}</source>
      <translation>cuDNN {version}</translation>
    </message>
    <message>
      <source>data loader (originals)</source>
      <translation>数据加载（原图）</translation>
    </message>
    <message>
      <source>data loader with RAM cache</source>
      <translation>带内存缓存的数据加载</translation>
    </message>
    <message>
      <source>data wait</source>
      <translation>数据等待</translation>
    </message>
    <message>
      <source>data-loader workers the checks assume (default 8)</source>
      <translation>检查时假定的数据加载进程数（默认 8）</translation>
    </message>
    <message>
      <source>dataset</source>
      <translation>数据集</translation>
    </message>
    <message>
      <source>dataset YAML (default: the run's)</source>
      <translation>数据集 YAML（默认：该训练的）</translation>
    </message>
    <message>
      <source>dataset YAML for verification/calibration (default: the run's)</source>
      <translation>用于验证/校准的数据集 YAML（默认：训练时的）</translation>
    </message>
    <message>
      <source>dataset changes since {run} unknown (it recorded no dataset version)</source>
      <translation>自 {run} 以来的数据集变化未知（它没有记录数据集版本）</translation>
    </message>
    <message>
      <source>decode each image once and keep it in RAM (yolov5 checks that it fits, else trains without cache)</source>
      <translation>每张图片只解码一次并保存在内存中（yolov5 会检查内存是否够用，不够则不缓存）</translation>
    </message>
    <message>
      <source>decoded at {imgsz} px: ~{gb:.2f} GB{ranks} (yolov5's check_cache_ram estimate); {ram} GB RAM available</source>
      <translation>以 {imgsz} 像素解码：约 {gb:.2f} GB{ranks}（yolov5 的 check_cache_ram 估算）；可用内存 {ram} GB</translation>
    </message>
    <message>
      <source>default {limit}</source>
      <translation>默认 {limit}</translation>
    </message>
    <message>
      <source>delete a class {cls} box</source>
      <translation>删除一个类别 {cls} 的框</translation>
    </message>
    <message>
      <source>delete checkpoints from the store</source>
      <translation>从权重库中删除检查点</translation>
    </message>
    <message>
      <source>delete the repeated row</source>
      <translation>删除重复的行</translation>
    </message>
    <message>
      <source>delete the row with the impossible class id</source>
      <translation>删除类别 id 不可能成立的那一行</translation>
    </message>
    <message>
      <source>disk</source>
      <translation>磁盘</translation>
    </message>
    <message>
      <source>disk cache (estimated from RAM)</source>
      <translation>磁盘缓存（由内存测量估算）</translation>
    </message>
    <message>
      <source>download official checkpoints (the app's only network use)</source>
      <translation>下载官方检查点（应用唯一的联网操作）</translation>
    </message>
    <message>
      <source>drawn by a person</source>
      <translation>由人工绘制</translation>
    </message>
    <message>
      <source>driver</source>
      <translation>驱动</translation>
    </message>
    <message>
      <source>driver version</source>
      <translation>驱动版本</translation>
    </message>
    <message>
      <source>driver {driver} is too old for CUDA builds: update it and run the installer again</source>
      <translation>驱动 {driver} 对 CUDA 版本来说太旧：请更新驱动后重新运行安装程序</translation>
    </message>
    <message>
      <source>driver {driver} runs PyTorch's CUDA {cuda}</source>
      <translation>驱动 {driver} 可运行 PyTorch 的 CUDA {cuda}</translation>
    </message>
    <message>
      <source>driver {driver}; GPUs listed: {count}</source>
      <translation>驱动 {driver}；列出的 GPU：{count} 个</translation>
    </message>
    <message>
      <source>driver's CUDA</source>
      <translation>驱动支持的 CUDA</translation>
    </message>
    <message>
      <source>duplicate detection</source>
      <translation>重复检测</translation>
    </message>
    <message>
      <source>duration</source>
      <translation>时长</translation>
    </message>
    <message>
      <source>dynamic batch and image size</source>
      <translation>动态批大小和图片尺寸</translation>
    </message>
    <message>
      <source>edit the boxes of {path}</source>
      <translation>编辑 {path} 的框</translation>
    </message>
    <message>
      <source>enlarge the page file: System → Advanced system settings → Performance → Settings → Advanced → Virtual memory → 'System managed size' or a larger custom size, then restart</source>
      <translation>扩大页面文件：系统 → 高级系统设置 → 性能 → 设置 → 高级 → 虚拟内存 → '系统管理的大小' 或更大的自定义大小，然后重启</translation>
    </message>
    <message>
      <source>epochs</source>
      <translation>轮数</translation>
    </message>
    <message>
      <source>epochs done</source>
      <translation>已完成轮次</translation>
    </message>
    <message>
      <source>epochs of each fold's training (default: the run's, at most {n})</source>
      <translation>每折训练的轮次（默认：该训练的轮次，最多 {n}）</translation>
    </message>
    <message>
      <source>error</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>error: {message}</source>
      <translation>错误：{message}</translation>
    </message>
    <message>
      <source>error: {reason}</source>
      <translation>错误：{reason}</translation>
    </message>
    <message>
      <source>estimate</source>
      <translation>估算</translation>
    </message>
    <message>
      <source>estimate: {free:.1f} GB free on {name} at ~{per:.2f} GB per image</source>
      <translation>估算：{name} 上可用 {free:.1f} GB，每张图片约 {per:.2f} GB</translation>
    </message>
    <message>
      <source>evaluate a model with yolov5's validation: per-class metrics, confusion matrix, its mistakes image by image (likeliest label mistakes first)</source>
      <translation>用 yolov5 的验证评估模型：各类别指标、混淆矩阵、逐图的错误（最可能的标注错误在前）</translation>
    </message>
    <message>
      <source>evaluated</source>
      <translation>评估时间</translation>
    </message>
    <message>
      <source>evaluating FP32 and INT8 on the val split</source>
      <translation>正在 val 划分上评估 FP32 与 INT8</translation>
    </message>
    <message>
      <source>evaluation ({split})</source>
      <translation>评估（{split}）</translation>
    </message>
    <message>
      <source>every box well above the threshold (lowest {conf:.2f})</source>
      <translation>所有框都远高于阈值（最低 {conf:.2f}）</translation>
    </message>
    <message>
      <source>exit code {code}</source>
      <translation>退出码 {code}</translation>
    </message>
    <message>
      <source>export weights to ONNX, TensorRT, TorchScript or OpenVINO, verified against PyTorch</source>
      <translation>将权重导出为 ONNX、TensorRT、TorchScript 或 OpenVINO，并与 PyTorch 对比验证</translation>
    </message>
    <message>
      <source>exporting {format}</source>
      <translation>正在导出 {format}</translation>
    </message>
    <message>
      <source>facts file {path}</source>
      <translation>检测信息文件 {path}</translation>
    </message>
    <message>
      <source>facts malformed: {reason}</source>
      <translation>检测信息格式错误：{reason}</translation>
    </message>
    <message>
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>false positive (nothing labelled there)</source>
      <translation>误检（那里没有标注）</translation>
    </message>
    <message>
      <source>family minimum driver</source>
      <translation>该系列的最低驱动</translation>
    </message>
    <message>
      <source>fewer pixels to decode and augment per image</source>
      <translation>每张图片需要解码和增强的像素更少</translation>
    </message>
    <message>
      <source>field {problem}</source>
      <translation>字段 {problem}</translation>
    </message>
    <message>
      <source>files read</source>
      <translation>已读取文件</translation>
    </message>
    <message>
      <source>fine-tune from RUN's best weights with its settings, on its dataset as it is now (options given here override them)</source>
      <translation>从 RUN 的 best 权重出发、沿用其设置，在其数据集的当前状态上微调（此处给出的选项会覆盖它们）</translation>
    </message>
    <message>
      <source>finished in {s:.1f} s</source>
      <translation>用时 {s:.1f} 秒完成</translation>
    </message>
    <message>
      <source>fits driver {driver} and {gpus}</source>
      <translation>适合驱动 {driver} 和 {gpus}</translation>
    </message>
    <message>
      <source>fix: {fix}</source>
      <translation>修复：{fix}</translation>
    </message>
    <message>
      <source>fold {fold} of {folds}: predicting its {n} held-out images</source>
      <translation>第 {fold}/{folds} 折：正在预测其留出的 {n} 张图片</translation>
    </message>
    <message>
      <source>fold {fold} of {folds}: training on {n} images for {epochs} epochs</source>
      <translation>第 {fold}/{folds} 折：在 {n} 张图片上训练 {epochs} 个轮次</translation>
    </message>
    <message>
      <source>follow a run's progress (or replay a finished one)</source>
      <translation>跟踪训练进度（或回放已结束的训练）</translation>
    </message>
    <message>
      <source>for JPEGs with an EXIF orientation: were the boxes drawn on the stored pixels or on the turned picture (default: from the annotation's size, else the tool's habit)</source>
      <translation>对带 EXIF 方向的 JPEG：框是画在存储的像素上还是旋转后的画面上（默认：根据标注中的尺寸判断，否则按标注工具的习惯）</translation>
    </message>
    <message>
      <source>foreign: {file} (not verified there: you are asked before it is loaded)</source>
      <translation>外来：{file}（在那里未通过验证：加载之前会询问你）</translation>
    </message>
    <message>
      <source>free</source>
      <translation>可用</translation>
    </message>
    <message>
      <source>free space not checked</source>
      <translation>未检查可用空间</translation>
    </message>
    <message>
      <source>gen {gen} of {gen_max}, x{width} of x{width_max}</source>
      <translation>第 {gen} 代（最高 {gen_max}），x{width}（最高 x{width_max}）</translation>
    </message>
    <message>
      <source>give the data.yaml of a dataset on this machine</source>
      <translation>请给出本机上某个数据集的 data.yaml</translation>
    </message>
    <message>
      <source>give them there: a dataset or a list on {name}, 'yolostudio weights import FILE' on {name}</source>
      <translation>请在那里指定：{name} 上的数据集或列表，或在 {name} 上运行 'yolostudio weights import FILE'</translation>
    </message>
    <message>
      <source>goal: {goal}; {evidence}</source>
      <translation>目标：{goal}；{evidence}</translation>
    </message>
    <message>
      <source>grant it there: 'yolostudio weights import FILE' on {name}</source>
      <translation>请在那台机器上授权：在 {name} 上运行 'yolostudio weights import FILE'</translation>
    </message>
    <message>
      <source>hard-link the images; fail if that is not possible</source>
      <translation>硬链接图片；无法链接时报错</translation>
    </message>
    <message>
      <source>hardware power brake</source>
      <translation>硬件电源制动降频</translation>
    </message>
    <message>
      <source>hardware slowdown</source>
      <translation>硬件降频</translation>
    </message>
    <message>
      <source>hardware thermal slowdown</source>
      <translation>硬件过热降频</translation>
    </message>
    <message>
      <source>held-out k-fold, train</source>
      <translation>留出 k 折，train</translation>
    </message>
    <message>
      <source>held-out predictions for the train split: K short trainings, each predicting the fold it did not learn (3 is a good start)</source>
      <translation>为训练划分做留出预测：K 次短训练，每次预测它没学过的那一折（3 是不错的起点）</translation>
    </message>
    <message>
      <source>holds a {kind}, not a mapping</source>
      <translation>是一个 {kind}，而不是映射</translation>
    </message>
    <message>
      <source>how long the search may run (8h, 90m, 1h30m)</source>
      <translation>搜索最多运行多久（8h、90m、1h30m）</translation>
    </message>
    <message>
      <source>how much neighbouring tiles overlap (default: {v})</source>
      <translation>相邻切片的重叠比例（默认：{v}）</translation>
    </message>
    <message>
      <source>image</source>
      <translation>图片</translation>
    </message>
    <message>
      <source>image format of the copy (default: jpg)</source>
      <translation>副本的图片格式（默认：jpg）</translation>
    </message>
    <message>
      <source>image size (default: the run's, else 640)</source>
      <translation>图片尺寸（默认：该训练的，否则 640）</translation>
    </message>
    <message>
      <source>image size the checks assume (default 640)</source>
      <translation>检查时假定的图片尺寸（默认 640）</translation>
    </message>
    <message>
      <source>image {id} ({name}) is not in the source folder</source>
      <translation>图片 {id}（{name}）不在源文件夹中</translation>
    </message>
    <message>
      <source>image {id}: height</source>
      <translation>图片 {id}：height</translation>
    </message>
    <message>
      <source>image {id}: width</source>
      <translation>图片 {id}：width</translation>
    </message>
    <message>
      <source>image {image}, annotation {id}</source>
      <translation>图片 {image}，标注 {id}</translation>
    </message>
    <message>
      <source>images</source>
      <translation>图片数</translation>
    </message>
    <message>
      <source>images per second</source>
      <translation>每秒图片数</translation>
    </message>
    <message>
      <source>images {side} px (most common); {small}</source>
      <translation>图片 {side} 像素（最常见）；{small}</translation>
    </message>
    <message>
      <source>images/s</source>
      <translation>张/秒</translation>
    </message>
    <message>
      <source>import error</source>
      <translation>导入错误</translation>
    </message>
    <message>
      <source>improve airflow (dust, fans, the fan curve)</source>
      <translation>改善散热（灰尘、风扇、风扇曲线）</translation>
    </message>
    <message>
      <source>info</source>
      <translation>提示</translation>
    </message>
    <message>
      <source>input size (default: the run's, else 640)</source>
      <translation>输入尺寸（默认：训练时的尺寸，否则 640）</translation>
    </message>
    <message>
      <source>install YOLO Studio on a machine over ssh (this app's folder sent, its installer run there)</source>
      <translation>通过 ssh 在机器上安装 YOLO Studio（发送本应用的文件夹，并在那里运行其安装程序）</translation>
    </message>
    <message>
      <source>install it there: 'yolostudio machine install {name}' (add --offline when it has no internet), or give its path with 'yolostudio machine add {name} --ssh {dest} --remote-command PATH'</source>
      <translation>在那里安装：'yolostudio machine install {name}'（无法上网时加 --offline），或用 'yolostudio machine add {name} --ssh {dest} --remote-command PATH' 给出它的路径</translation>
    </message>
    <message>
      <source>install the CPU build of PyTorch</source>
      <translation>安装 CPU 版 PyTorch</translation>
    </message>
    <message>
      <source>install the PyTorch build this machine needs when the check finds a wrong one (asks first)</source>
      <translation>检查发现 PyTorch 版本不对时，安装这台机器需要的版本（会先询问）</translation>
    </message>
    <message>
      <source>install the app here instead of the per-user default</source>
      <translation>把应用安装到这里，而不是默认的用户目录</translation>
    </message>
    <message>
      <source>install this CUDA build of PyTorch</source>
      <translation>安装这个 CUDA 版本的 PyTorch</translation>
    </message>
    <message>
      <source>installed</source>
      <translation>已安装</translation>
    </message>
    <message>
      <source>instances</source>
      <translation>实例数</translation>
    </message>
    <message>
      <source>interrupted</source>
      <translation>已中断</translation>
    </message>
    <message>
      <source>is empty</source>
      <translation>为空</translation>
    </message>
    <message>
      <source>is inside the dataset's own folder {folder}</source>
      <translation>位于数据集自己的文件夹 {folder} 之内</translation>
    </message>
    <message>
      <source>is the dataset's own folder</source>
      <translation>就是数据集自己的文件夹</translation>
    </message>
    <message>
      <source>it holds a control or invisible character</source>
      <translation>其中含有控制字符或不可见字符</translation>
    </message>
    <message>
      <source>it holds a {found}, not a facts object</source>
      <translation>其内容是 {found}，而不是环境信息对象</translation>
    </message>
    <message>
      <source>it is larger than {limit} MB</source>
      <translation>文件大于 {limit} MB</translation>
    </message>
    <message>
      <source>it is larger than {limit} MB, the limit for a data.yaml</source>
      <translation>文件大于 data.yaml 的上限 {limit} MB</translation>
    </message>
    <message>
      <source>it is not a regular file (a folder, a pipe or a device)</source>
      <translation>它不是普通文件（而是文件夹、管道或设备）</translation>
    </message>
    <message>
      <source>it is {state}</source>
      <translation>其状态为 {state}</translation>
    </message>
    <message>
      <source>it starts or ends with a space, or ends with a dot</source>
      <translation>它以空格开头或结尾，或以点结尾</translation>
    </message>
    <message>
      <source>its JSON nests too deeply to be a facts file</source>
      <translation>其 JSON 嵌套过深，不可能是环境信息文件</translation>
    </message>
    <message>
      <source>its compute mode is Exclusive and another process holds it</source>
      <translation>它的计算模式为独占，且已被另一个进程占用</translation>
    </message>
    <message>
      <source>its compute mode is Prohibited</source>
      <translation>它的计算模式为禁止计算</translation>
    </message>
    <message>
      <source>its image {image} has the same pixels as {kept}, annotated by {other}: this annotation's {n} box is left out (one picture is imported once)</source>
      <translation>它的图片 {image} 与 {kept}（由 {other} 标注）像素相同：此标注的 {n} 个框已略去（同一张图片只导入一次）</translation>
    </message>
    <message>
      <source>its image {image} has the same pixels as {kept}, annotated by {other}: this annotation's {n} boxes are left out (one picture is imported once)</source>
      <translation>它的图片 {image} 与 {kept}（由 {other} 标注）像素相同：此标注的 {n} 个框已略去（同一张图片只导入一次）</translation>
    </message>
    <message>
      <source>its image {name} is not in the source folder</source>
      <translation>它的图片 {name} 不在源文件夹中</translation>
    </message>
    <message>
      <source>its image {name} is not in the source folder and not embedded (imageData)</source>
      <translation>它的图片 {name} 不在源文件夹中，也没有嵌入（imageData）</translation>
    </message>
    <message>
      <source>its layers differ from {yaml}</source>
      <translation>它的层与 {yaml} 不同</translation>
    </message>
    <message>
      <source>its name in the store (default: the file's name)</source>
      <translation>它在权重库中的名称（默认：文件名）</translation>
    </message>
    <message>
      <source>its test kernel failed</source>
      <translation>其测试内核失败</translation>
    </message>
    <message>
      <source>judge a saved facts file instead of this machine</source>
      <translation>评估保存的检测信息文件，而不是这台机器</translation>
    </message>
    <message>
      <source>keep COCO crowd regions (iscrowd)</source>
      <translation>保留 COCO 的人群区域（iscrowd）</translation>
    </message>
    <message>
      <source>keep VOC objects marked difficult (left out by default, as yolov5's VOC conversion does)</source>
      <translation>保留标为 difficult 的 VOC 目标（默认略去，与 yolov5 自己的 VOC 转换一致）</translation>
    </message>
    <message>
      <source>kernel module (loaded)</source>
      <translation>内核模块（已加载）</translation>
    </message>
    <message>
      <source>latency {p}</source>
      <translation>延迟 {p}</translation>
    </message>
    <message>
      <source>layer {index}: argument {value} is neither a number, a literal nor one of {names}; yolov5 would run it as Python code.</source>
      <translation>第 {index} 层：参数 {value} 既不是数字、字面量，也不是 {names} 之一；yolov5 会把它当作 Python 代码运行。</translation>
    </message>
    <message>
      <source>layer {index}: module {value} is not a layer yolov5 or torch.nn defines; yolov5 would run it as Python code.</source>
      <translation>第 {index} 层：模块 {value} 不是 yolov5 或 torch.nn 定义的网络层；yolov5 会把它当作 Python 代码运行。</translation>
    </message>
    <message>
      <source>ldd could not read {plugin}: {reason}</source>
      <translation>ldd 无法读取 {plugin}：{reason}</translation>
    </message>
    <message>
      <source>leave a class out (repeatable)</source>
      <translation>略去一个类别（可重复）</translation>
    </message>
    <message>
      <source>let a run's best weights propose boxes for new images (into a review queue, never into a dataset)</source>
      <translation>用某次训练的 best 权重为新图片建议标注框（放入审核队列，绝不直接进入数据集）</translation>
    </message>
    <message>
      <source>line {n}</source>
      <translation>第 {n} 行</translation>
    </message>
    <message>
      <source>link bandwidth</source>
      <translation>链路带宽</translation>
    </message>
    <message>
      <source>list runs with status and best mAP</source>
      <translation>列出训练记录及其状态和最佳 mAP</translation>
    </message>
    <message>
      <source>list the review queues, or one queue least certain first</source>
      <translation>列出审核队列，或按最不确定优先列出一个队列</translation>
    </message>
    <message>
      <source>list the run's stored evaluations (newest first) instead of evaluating</source>
      <translation>列出该训练已保存的评估（最新的在前），而不是进行评估</translation>
    </message>
    <message>
      <source>loader img/s by workers — {counts}</source>
      <translation>按加载进程数的加载速度（张/秒）— {counts}</translation>
    </message>
    <message>
      <source>loader img/s by workers — {counts}; the model consumes {demand:.0f} img/s; limits: {limits}</source>
      <translation>按加载进程数的加载速度（张/秒）— {counts}；模型消耗 {demand:.0f} 张/秒；限制：{limits}</translation>
    </message>
    <message>
      <source>loader {supply:.0f} img/s with yolov5's augmentation; the model consumes {demand:.0f} img/s</source>
      <translation>加载器在 yolov5 自带增强下供给 {supply:.0f} 张/秒；模型消耗 {demand:.0f} 张/秒</translation>
    </message>
    <message>
      <source>loading {path}</source>
      <translation>正在加载 {path}</translation>
    </message>
    <message>
      <source>local AMP check passed</source>
      <translation>本地 AMP 检查通过</translation>
    </message>
    <message>
      <source>logical CPU count</source>
      <translation>逻辑 CPU 数</translation>
    </message>
    <message>
      <source>logical CPUs (os.cpu_count)</source>
      <translation>逻辑 CPU（os.cpu_count）</translation>
    </message>
    <message>
      <source>mAP</source>
      <translation>mAP</translation>
    </message>
    <message>
      <source>mAP: COCO val2017 mAP@0.5:0.95, from the YOLOv5 v7.0 README. Store: {path}</source>
      <translation>mAP：COCO val2017 mAP@0.5:0.95，来自 YOLOv5 v7.0 的 README。权重库：{path}</translation>
    </message>
    <message>
      <source>mAP@0.5 of {name}</source>
      <translation>{name} 的 mAP@0.5</translation>
    </message>
    <message>
      <source>machine name</source>
      <translation>机器名称</translation>
    </message>
    <message>
      <source>machines reached by SSH: add, list, check (runs can train there)</source>
      <translation>通过 SSH 连接的机器：添加、列出、检查（可在那里训练）</translation>
    </message>
    <message>
      <source>measure this machine and recommend training settings</source>
      <translation>测量这台机器并推荐训练设置</translation>
    </message>
    <message>
      <source>measuring</source>
      <translation>测量</translation>
    </message>
    <message>
      <source>memory unknown</source>
      <translation>内存未知</translation>
    </message>
    <message>
      <source>memory used</source>
      <translation>已用显存</translation>
    </message>
    <message>
      <source>merge classes spelled two ways (Cat, cat, 'cat ') into the commonest spelling</source>
      <translation>把写法不同的同一类别（Cat、cat、'cat '）合并为最常见的写法</translation>
    </message>
    <message>
      <source>message</source>
      <translation>消息</translation>
    </message>
    <message>
      <source>missed object</source>
      <translation>漏检目标</translation>
    </message>
    <message>
      <source>model speed</source>
      <translation>模型速度</translation>
    </message>
    <message>
      <source>more space</source>
      <translation>更多空间</translation>
    </message>
    <message>
      <source>mount an emptyDir with medium: Memory (sizeLimit: 16Gi) at /dev/shm in the pod spec</source>
      <translation>在 Pod 规格中把 medium: Memory 的 emptyDir（sizeLimit: 16Gi）挂载到 /dev/shm</translation>
    </message>
    <message>
      <source>move the label aside into _orphaned_labels/</source>
      <translation>把标注移到 _orphaned_labels/ 中</translation>
    </message>
    <message>
      <source>ms median FP32 / INT8</source>
      <translation>毫秒中位数 FP32 / INT8</translation>
    </message>
    <message>
      <source>ms per image, median (10–90 %)</source>
      <translation>每张图片毫秒数，中位数（10–90 %）</translation>
    </message>
    <message>
      <source>n/a</source>
      <translation>不适用</translation>
    </message>
    <message>
      <source>name</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>nc is {nc} but there are {n} names. yolov5 ignores nc and uses the {n} names, so labels with ids from {n} up abort training; fix the names list (or delete nc).</source>
      <translation>nc 为 {nc}，但有 {n} 个名称。yolov5 会忽略 nc 而使用这 {n} 个名称，所以 id 从 {n} 起的标签会中止训练；请修正名称列表（或删除 nc）。</translation>
    </message>
    <message>
      <source>needed</source>
      <translation>需要</translation>
    </message>
    <message>
      <source>needed at least</source>
      <translation>至少需要</translation>
    </message>
    <message>
      <source>network namespaces are a Linux feature ({platform} has none)</source>
      <translation>网络命名空间是 Linux 的功能（{platform} 没有）</translation>
    </message>
    <message>
      <source>never</source>
      <translation>从不</translation>
    </message>
    <message>
      <source>no</source>
      <translation>否</translation>
    </message>
    <message>
      <source>no /dev/shm on this OS</source>
      <translation>此操作系统没有 /dev/shm</translation>
    </message>
    <message>
      <source>no /dev/shm on {os}</source>
      <translation>{os} 上没有 /dev/shm</translation>
    </message>
    <message>
      <source>no COCO annotation file found</source>
      <translation>没有找到 COCO 标注文件</translation>
    </message>
    <message>
      <source>no CUDA builds for this OS</source>
      <translation>此操作系统没有 CUDA 版本</translation>
    </message>
    <message>
      <source>no CUDA device: the batch is chosen from RAM</source>
      <translation>没有 CUDA 设备：根据内存选择批大小</translation>
    </message>
    <message>
      <source>no CUDA device: yolov5 trains in FP32 on the CPU</source>
      <translation>没有 CUDA 设备：yolov5 在 CPU 上以 FP32 训练</translation>
    </message>
    <message>
      <source>no DMI chassis type</source>
      <translation>没有 DMI 机箱类型</translation>
    </message>
    <message>
      <source>no GPU</source>
      <translation>没有 GPU</translation>
    </message>
    <message>
      <source>no GPU listed</source>
      <translation>没有列出 GPU</translation>
    </message>
    <message>
      <source>no NVIDIA GPU</source>
      <translation>没有 NVIDIA GPU</translation>
    </message>
    <message>
      <source>no NVIDIA GPU found</source>
      <translation>未找到 NVIDIA GPU</translation>
    </message>
    <message>
      <source>no NVIDIA GPU was found</source>
      <translation>未找到 NVIDIA GPU</translation>
    </message>
    <message>
      <source>no NVIDIA GPU was found ({reason})</source>
      <translation>未找到 NVIDIA GPU（{reason}）</translation>
    </message>
    <message>
      <source>no NVIDIA driver installed</source>
      <translation>未安装 NVIDIA 驱动</translation>
    </message>
    <message>
      <source>no NVIDIA driver library on this machine</source>
      <translation>本机没有 NVIDIA 驱动库</translation>
    </message>
    <message>
      <source>no NVML library (libnvidia-ml.so.1) found</source>
      <translation>没有找到 NVML 库（libnvidia-ml.so.1）</translation>
    </message>
    <message>
      <source>no answer</source>
      <translation>没有应答</translation>
    </message>
    <message>
      <source>no answer within {seconds:g} s</source>
      <translation>{seconds:g} 秒内没有应答</translation>
    </message>
    <message>
      <source>no bndbox</source>
      <translation>没有 bndbox</translation>
    </message>
    <message>
      <source>no box at confidence {conf:.2f} and nobody reviewed it: left in the queue</source>
      <translation>没有置信度达到 {conf:.2f} 的框，且尚无人审核：留在队列中</translation>
    </message>
    <message>
      <source>no dataset given</source>
      <translation>未指定数据集</translation>
    </message>
    <message>
      <source>no detections</source>
      <translation>无检测结果</translation>
    </message>
    <message>
      <source>no image file could be read</source>
      <translation>没有能读取的图片文件</translation>
    </message>
    <message>
      <source>no image files there to time</source>
      <translation>那里没有可计时的图片文件</translation>
    </message>
    <message>
      <source>no labels yet</source>
      <translation>尚无标注</translation>
    </message>
    <message>
      <source>no nvidia kernel module loaded</source>
      <translation>没有加载 nvidia 内核模块</translation>
    </message>
    <message>
      <source>no permission to query the GPU</source>
      <translation>没有查询 GPU 的权限</translation>
    </message>
    <message>
      <source>no pictures found</source>
      <translation>没有找到图片</translation>
    </message>
    <message>
      <source>no readable training image</source>
      <translation>没有可读取的训练图片</translation>
    </message>
    <message>
      <source>no space</source>
      <translation>没有空间</translation>
    </message>
    <message>
      <source>no usable GPU</source>
      <translation>没有可用的 GPU</translation>
    </message>
    <message>
      <source>no: the val split changed after the evaluation</source>
      <translation>否：评估之后验证集有变化</translation>
    </message>
    <message>
      <source>node {node} ({host})</source>
      <translation>节点 {node}（{host}）</translation>
    </message>
    <message>
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <source>none (CPU build)</source>
      <translation>无（CPU 版本）</translation>
    </message>
    <message>
      <source>none found</source>
      <translation>未找到</translation>
    </message>
    <message>
      <source>none found ({error}: {message})</source>
      <translation>未找到（{error}：{message}）</translation>
    </message>
    <message>
      <source>none: trained from scratch</source>
      <translation>无：从零开始训练</translation>
    </message>
    <message>
      <source>not Windows</source>
      <translation>不是 Windows</translation>
    </message>
    <message>
      <source>not a picture Pillow can decode</source>
      <translation>不是 Pillow 能解码的图片</translation>
    </message>
    <message>
      <source>not a readable COCO file: {error}</source>
      <translation>不是可读的 COCO 文件：{error}</translation>
    </message>
    <message>
      <source>not installed</source>
      <translation>未安装</translation>
    </message>
    <message>
      <source>not on this machine</source>
      <translation>不在本机</translation>
    </message>
    <message>
      <source>not read</source>
      <translation>未读取</translation>
    </message>
    <message>
      <source>not readable JSON: {error}</source>
      <translation>不是可读的 JSON：{error}</translation>
    </message>
    <message>
      <source>not readable XML: {error}</source>
      <translation>不是可读的 XML：{error}</translation>
    </message>
    <message>
      <source>not recorded — remove, then get or import it</source>
      <translation>没有记录 — 请删除，然后重新获取或导入</translation>
    </message>
    <message>
      <source>not recorded: the run keeps the dataset file's path, not a fingerprint of its training images</source>
      <translation>未记录：训练只保存了数据集文件的路径，没有保存其训练图片的指纹</translation>
    </message>
    <message>
      <source>not set</source>
      <translation>未设置</translation>
    </message>
    <message>
      <source>not supported by this GPU</source>
      <translation>这块 GPU 不支持</translation>
    </message>
    <message>
      <source>note: {text}</source>
      <translation>注意：{text}</translation>
    </message>
    <message>
      <source>nvidia-smi -q -d POWER   # compare the enforced limit with the default and max limits</source>
      <translation>nvidia-smi -q -d POWER   # 把当前生效的上限与默认和最大上限比较</translation>
    </message>
    <message>
      <source>object {n}</source>
      <translation>第 {n} 个目标</translation>
    </message>
    <message>
      <source>off</source>
      <translation>关</translation>
    </message>
    <message>
      <source>on</source>
      <translation>开</translation>
    </message>
    <message>
      <source>on this machine</source>
      <translation>已在本机</translation>
    </message>
    <message>
      <source>only read on Linux</source>
      <translation>仅在 Linux 上读取</translation>
    </message>
    <message>
      <source>only send the files; print the command that installs there (to run it yourself, e.g. in tmux)</source>
      <translation>只发送文件；显示在那里安装的命令（由你自己运行，例如在 tmux 中）</translation>
    </message>
    <message>
      <source>open the desktop app (the default)</source>
      <translation>打开桌面应用（默认）</translation>
    </message>
    <message>
      <source>operate at the highest confidence that finds at least this share of the objects (0–1; default: the best-F1 confidence)</source>
      <translation>在仍能找到至少这一比例目标的最高置信度下工作（0–1；默认：最佳 F1 的置信度）</translation>
    </message>
    <message>
      <source>operate at the lowest confidence with at most F false alarms per 100 images</source>
      <translation>在每 100 张图片最多 F 次误报的最低置信度下工作</translation>
    </message>
    <message>
      <source>options</source>
      <translation>选项</translation>
    </message>
    <message>
      <source>or train on the idle {gpu}: {fix}</source>
      <translation>或在空闲的 {gpu} 上训练：{fix}</translation>
    </message>
    <message>
      <source>originals</source>
      <translation>原图</translation>
    </message>
    <message>
      <source>output folder (default: a new predict folder under the run or the workspace)</source>
      <translation>输出文件夹（默认：训练或工作区下新建的 predict 文件夹）</translation>
    </message>
    <message>
      <source>over the limit: not verified</source>
      <translation>超出限度：未通过验证</translation>
    </message>
    <message>
      <source>overfitting</source>
      <translation>过拟合</translation>
    </message>
    <message>
      <source>pages waiting for retirement</source>
      <translation>等待停用的页</translation>
    </message>
    <message>
      <source>path</source>
      <translation>路径</translation>
    </message>
    <message>
      <source>pid {pid} ({name}, {memory})</source>
      <translation>pid {pid}（{name}，{memory}）</translation>
    </message>
    <message>
      <source>pip and the NVIDIA management library</source>
      <translation>pip 和 NVIDIA 管理库</translation>
    </message>
    <message>
      <source>pip could not ask {index} whether it serves {tag}: {why}</source>
      <translation>pip 无法向 {index} 询问是否提供 {tag}：{why}</translation>
    </message>
    <message>
      <source>pip exited with code {code}</source>
      <translation>pip 以代码 {code} 退出</translation>
    </message>
    <message>
      <source>pip is replacing PyTorch's files now; stopping it would leave PyTorch half installed. It will finish in a moment.</source>
      <translation>pip 正在替换 PyTorch 的文件；现在停止会让 PyTorch 只装了一半。它马上就会完成。</translation>
    </message>
    <message>
      <source>pip's full output: {log}</source>
      <translation>pip 的完整输出：{log}</translation>
    </message>
    <message>
      <source>plan for the machine in a facts file (yolostudio doctor --save-facts); implies --dry-run</source>
      <translation>为检测信息文件中的机器制定计划（yolostudio doctor --save-facts）；隐含 --dry-run</translation>
    </message>
    <message>
      <source>polygons as their bounding box (default) or kept as yolov5 segments</source>
      <translation>多边形转为外接框（默认）或保留为 yolov5 分割轮廓</translation>
    </message>
    <message>
      <source>poor box</source>
      <translation>框不准</translation>
    </message>
    <message>
      <source>power</source>
      <translation>功耗</translation>
    </message>
    <message>
      <source>precision {p}  recall {r}  mAP@0.5 {m50}  mAP@0.5:0.95 {m}</source>
      <translation>精确率 {p}  召回率 {r}  mAP@0.5 {m50}  mAP@0.5:0.95 {m}</translation>
    </message>
    <message>
      <source>predictions</source>
      <translation>预测</translation>
    </message>
    <message>
      <source>prepared copy</source>
      <translation>预处理副本</translation>
    </message>
    <message>
      <source>prepared copy + RAM cache</source>
      <translation>预处理副本 + 内存缓存</translation>
    </message>
    <message>
      <source>pretrained checkpoints: list, get (download on request), import, remove</source>
      <translation>预训练检查点：列出、获取（按需下载）、导入、删除</translation>
    </message>
    <message>
      <source>pretrained weights</source>
      <translation>预训练权重</translation>
    </message>
    <message>
      <source>print facts and findings as one JSON document</source>
      <translation>以一个 JSON 文档输出检测信息和问题</translation>
    </message>
    <message>
      <source>print findings and statistics as JSON</source>
      <translation>以 JSON 输出问题和统计</translation>
    </message>
    <message>
      <source>print it as JSON</source>
      <translation>以 JSON 输出</translation>
    </message>
    <message>
      <source>print one JSON object per image or frame</source>
      <translation>每张图片或每一帧输出一个 JSON 对象</translation>
    </message>
    <message>
      <source>print the evaluation as one JSON document</source>
      <translation>以一个 JSON 文档输出评估结果</translation>
    </message>
    <message>
      <source>print the event stream as JSON lines</source>
      <translation>以 JSON 行输出事件流</translation>
    </message>
    <message>
      <source>print the plan as one JSON object</source>
      <translation>以一个 JSON 对象输出安装计划</translation>
    </message>
    <message>
      <source>print the report as JSON</source>
      <translation>以 JSON 输出报告</translation>
    </message>
    <message>
      <source>print the report's figures as one JSON document</source>
      <translation>把报告的数字输出为一个 JSON 文档</translation>
    </message>
    <message>
      <source>print the reports as one JSON document</source>
      <translation>以一个 JSON 文档输出报告</translation>
    </message>
    <message>
      <source>print the result as JSON</source>
      <translation>以 JSON 输出结果</translation>
    </message>
    <message>
      <source>print the result as one JSON document</source>
      <translation>以一个 JSON 文档输出结果</translation>
    </message>
    <message>
      <source>print the runs as one JSON list</source>
      <translation>以一个 JSON 列表输出训练记录</translation>
    </message>
    <message>
      <source>print {"data": PATH}</source>
      <translation>输出 {"data": PATH}</translation>
    </message>
    <message>
      <source>probe: batch {b} trained within {pct:.0%} of free memory{peak}</source>
      <translation>探测：批大小 {b} 训练时占用不超过可用显存的 {pct:.0%}{peak}</translation>
    </message>
    <message>
      <source>processes to use (default: all cores)</source>
      <translation>使用的进程数（默认：全部核心）</translation>
    </message>
    <message>
      <source>proposed by the model</source>
      <translation>由模型建议</translation>
    </message>
    <message>
      <source>quick test</source>
      <translation>快速测试</translation>
    </message>
    <message>
      <source>quick test, balanced, or best accuracy</source>
      <translation>快速测试、平衡或最高精度</translation>
    </message>
    <message>
      <source>rank {rank} (node {node}, {host}, pid {pid})</source>
      <translation>进程 {rank}（节点 {node}，{host}，pid {pid}）</translation>
    </message>
    <message>
      <source>rank {rank} of {world} on node {node}</source>
      <translation>节点 {node} 上的进程 {rank}（共 {world} 个）</translation>
    </message>
    <message>
      <source>read every file again</source>
      <translation>重新读取每个文件</translation>
    </message>
    <message>
      <source>read speed</source>
      <translation>读取速度</translation>
    </message>
    <message>
      <source>reason</source>
      <translation>原因</translation>
    </message>
    <message>
      <source>reasons</source>
      <translation>原因</translation>
    </message>
    <message>
      <source>recommend from facts alone (settings estimated)</source>
      <translation>只根据检测信息推荐（设置为估算值）</translation>
    </message>
    <message>
      <source>refused: the XML declares entities or a DTD ({what}), which a VOC file never needs</source>
      <translation>已拒绝：该 XML 声明了实体或 DTD（{what}），VOC 文件从不需要这些</translation>
    </message>
    <message>
      <source>remove the byte-order mark</source>
      <translation>去掉字节顺序标记（BOM）</translation>
    </message>
    <message>
      <source>remove the image from the val list</source>
      <translation>把该图片从 val 列表中移除</translation>
    </message>
    <message>
      <source>rename a class; two classes renamed to one name are merged (repeatable)</source>
      <translation>重命名类别；改成同一名字的两个类别会合并（可重复）</translation>
    </message>
    <message>
      <source>resume a run from outside this workspace's runs (its last.pt is a pickle and can run code)</source>
      <translation>继续训练本工作区以外的训练（其 last.pt 是 pickle 文件，可能执行代码）</translation>
    </message>
    <message>
      <source>resume a stopped or failed run from its last checkpoint</source>
      <translation>从最后的检查点继续已停止或失败的训练</translation>
    </message>
    <message>
      <source>retired pages</source>
      <translation>已停用的页</translation>
    </message>
    <message>
      <source>row</source>
      <translation>行</translation>
    </message>
    <message>
      <source>row remapping failed</source>
      <translation>行重映射失败</translation>
    </message>
    <message>
      <source>row remapping pending</source>
      <translation>待完成的行重映射</translation>
    </message>
    <message>
      <source>rule of thumb: a copy pays when images are over twice the size</source>
      <translation>经验法则：图片超过两倍尺寸时，做副本才划算</translation>
    </message>
    <message>
      <source>run 'yolostudio doctor --repair' (add --yes in scripts; the exit code says how it ended)</source>
      <translation>运行 'yolostudio doctor --repair'（脚本中加 --yes；退出码表示结果）</translation>
    </message>
    <message>
      <source>run 'yolostudio doctor' there to see it</source>
      <translation>在那里运行 'yolostudio doctor' 查看</translation>
    </message>
    <message>
      <source>run a model on images, a folder, a video, a camera or a stream</source>
      <translation>在图片、文件夹、视频、摄像头或视频流上运行模型</translation>
    </message>
    <message>
      <source>run it on a machine added with 'yolostudio machine add' (the result is fetched back)</source>
      <translation>在用 'yolostudio machine add' 添加的机器上运行（结果会取回）</translation>
    </message>
    <message>
      <source>run name or folder</source>
      <translation>训练名称或文件夹</translation>
    </message>
    <message>
      <source>run the doctor on a machine and show its findings</source>
      <translation>在一台机器上运行环境检查并显示结果</translation>
    </message>
    <message>
      <source>run {name} cannot be read: {reason}</source>
      <translation>无法读取训练 {name}：{reason}</translation>
    </message>
    <message>
      <source>run {name} cannot be resumed: {problem}</source>
      <translation>训练 {name} 无法继续：{problem}</translation>
    </message>
    <message>
      <source>run {name} completed; start a new run from its best.pt instead.</source>
      <translation>训练 {name} 已完成；请改用它的 best.pt 开始新的训练。</translation>
    </message>
    <message>
      <source>run {name} is still running; use 'yolostudio attach {name}'.</source>
      <translation>训练 {name} 仍在进行；请用 'yolostudio attach {name}'。</translation>
    </message>
    <message>
      <source>running</source>
      <translation>进行中</translation>
    </message>
    <message>
      <source>running PyTorch on {n} image</source>
      <translation>正在用 PyTorch 处理 {n} 张图片</translation>
    </message>
    <message>
      <source>running PyTorch on {n} images</source>
      <translation>正在用 PyTorch 处理 {n} 张图片</translation>
    </message>
    <message>
      <source>saving a resumable checkpoint</source>
      <translation>正在保存可续训的检查点</translation>
    </message>
    <message>
      <source>scoring the labels with cleanlab</source>
      <translation>正在用 cleanlab 给标注打分</translation>
    </message>
    <message>
      <source>search for better hyperparameters on Ray Tune (an optional extra)</source>
      <translation>用 Ray Tune 搜索更好的超参数（可选组件）</translation>
    </message>
    <message>
      <source>searching the dataset's folders: {n} so far</source>
      <translation>正在搜索数据集的文件夹：已找到 {n} 个</translation>
    </message>
    <message>
      <source>seconds before a hung probe is killed (default {s:.0f})</source>
      <translation>探测卡住多少秒后将其结束（默认 {s:.0f}）</translation>
    </message>
    <message>
      <source>seconds without data before a retry</source>
      <translation>多少秒收不到数据后重试</translation>
    </message>
    <message>
      <source>see the log</source>
      <translation>请查看日志</translation>
    </message>
    <message>
      <source>seed of the split (same seed, same split)</source>
      <translation>划分的随机种子（种子相同，划分相同）</translation>
    </message>
    <message>
      <source>send a dataset to a machine (only the files that changed)</source>
      <translation>把数据集发送到一台机器（只发送有改动的文件）</translation>
    </message>
    <message>
      <source>serves {gpus}; see the plan for the other GPUs</source>
      <translation>支持 {gpus}；其他 GPU 见安装计划</translation>
    </message>
    <message>
      <source>set 'path' to where the dataset is now</source>
      <translation>把 'path' 设为数据集现在所在的位置</translation>
    </message>
    <message>
      <source>shape {n}</source>
      <translation>第 {n} 个形状</translation>
    </message>
    <message>
      <source>shares of train, val and test (default: 0.8,0.2,0); a split the source has is kept</source>
      <translation>训练、验证、测试的比例（默认：0.8,0.2,0）；源数据自带的划分会保留</translation>
    </message>
    <message>
      <source>show what would be imported; write nothing</source>
      <translation>显示将要导入的内容；不写入任何东西</translation>
    </message>
    <message>
      <source>simplify the ONNX graph (needs onnxsim)</source>
      <translation>简化 ONNX 计算图（需要 onnxsim）</translation>
    </message>
    <message>
      <source>skip the dataset check before training (yolov5 may then stop on a broken dataset or train without the images it cannot read)</source>
      <translation>训练前跳过数据集检查（yolov5 可能因数据集损坏而停止，或跳过它读不了的图片进行训练）</translation>
    </message>
    <message>
      <source>skipped (--no-measure)</source>
      <translation>已跳过（--no-measure）</translation>
    </message>
    <message>
      <source>slice memory</source>
      <translation>切片显存</translation>
    </message>
    <message>
      <source>sliced inference for small objects: also predict SIZE-pixel tiles (default {v}) and merge the boxes; costs one model call per tile</source>
      <translation>针对小目标的切片推理：另外按 SIZE 像素的切片预测（默认 {v}）并合并框；每个切片多一次模型调用</translation>
    </message>
    <message>
      <source>small objects</source>
      <translation>小目标</translation>
    </message>
    <message>
      <source>software thermal slowdown</source>
      <translation>软件过热降频</translation>
    </message>
    <message>
      <source>speed per image: {pre} ms pre-process, {inf} ms inference, {nms} ms NMS</source>
      <translation>每张图片耗时：预处理 {pre} ms，推理 {inf} ms，NMS {nms} ms</translation>
    </message>
    <message>
      <source>ssh cannot read the configuration for {dest}: {reason}</source>
      <translation>ssh 无法读取 {dest} 的配置：{reason}</translation>
    </message>
    <message>
      <source>ssh {dest} failed: {reason}</source>
      <translation>ssh {dest} 失败：{reason}</translation>
    </message>
    <message>
      <source>ssh {dest}: no answer within {s:.0f} s.</source>
      <translation>ssh {dest}：{s:.0f} 秒内没有应答。</translation>
    </message>
    <message>
      <source>start from the options saved in FILE (JSON or YAML, e.g. from yolostudio wizard --json); options given on the command line override it</source>
      <translation>从 FILE 中保存的选项开始（JSON 或 YAML，例如来自 yolostudio wizard --json）；命令行上给出的选项会覆盖它</translation>
    </message>
    <message>
      <source>start from the options saved in FILE (a wizard document also gives the measured epoch time for the trial estimate)</source>
      <translation>从 FILE 中保存的选项开始（向导生成的文件还提供实测的每轮时间，用于估算试验数）</translation>
    </message>
    <message>
      <source>started</source>
      <translation>开始时间</translation>
    </message>
    <message>
      <source>starting Ray</source>
      <translation>正在启动 Ray</translation>
    </message>
    <message>
      <source>state</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>step</source>
      <translation>步骤</translation>
    </message>
    <message>
      <source>still improving</source>
      <translation>仍在提升</translation>
    </message>
    <message>
      <source>stop requested ({source})</source>
      <translation>已请求停止（{source}）</translation>
    </message>
    <message>
      <source>stopped</source>
      <translation>已停止</translation>
    </message>
    <message>
      <source>stored in</source>
      <translation>保存位置</translation>
    </message>
    <message>
      <source>sudo modprobe nvidia   # if that fails (e.g. after a kernel update), reboot</source>
      <translation>sudo modprobe nvidia   # 如果失败（例如内核更新后），请重启</translation>
    </message>
    <message>
      <source>sudo modprobe nvidia_uvm   # CUDA needs this module and it is not loaded</source>
      <translation>sudo modprobe nvidia_uvm   # CUDA 需要这个模块，而它没有加载</translation>
    </message>
    <message>
      <source>sudo nvidia-smi -i {index} -pl {default:.0f}   # restore the default limit; see the limits with: nvidia-smi -q -d POWER</source>
      <translation>sudo nvidia-smi -i {index} -pl {default:.0f}   # 恢复默认上限；查看上限：nvidia-smi -q -d POWER</translation>
    </message>
    <message>
      <source>sudo reboot   # or, with every program that uses the GPU closed (the desktop too): {reload}</source>
      <translation>sudo reboot   # 或关闭所有使用 GPU 的程序（包括桌面）后：{reload}</translation>
    </message>
    <message>
      <source>sudo ubuntu-drivers install   # or your distribution's NVIDIA driver package, version {driver} or newer</source>
      <translation>sudo ubuntu-drivers install   # 或你的发行版的 NVIDIA 驱动包，版本 {driver} 或更新</translation>
    </message>
    <message>
      <source>supported</source>
      <translation>支持的版本</translation>
    </message>
    <message>
      <source>swap</source>
      <translation>交换空间</translation>
    </message>
    <message>
      <source>take the image out of its split</source>
      <translation>把该图片移出它所在的划分</translation>
    </message>
    <message>
      <source>temperature</source>
      <translation>温度</translation>
    </message>
    <message>
      <source>the .pt to export (a run's best.pt / last.pt, or an official name such as yolov5s.pt from the weights store)</source>
      <translation>要导出的 .pt（某次训练的 best.pt / last.pt，或权重库中的官方名称，如 yolov5s.pt）</translation>
    </message>
    <message>
      <source>the CPU affinity mask ({usable} CPUs)</source>
      <translation>CPU 亲和性掩码（{usable} 个 CPU）</translation>
    </message>
    <message>
      <source>the GPU stopped answering (fell off the bus)</source>
      <translation>GPU 停止响应（已从总线掉线）</translation>
    </message>
    <message>
      <source>the GPUs could not be read ({reason})</source>
      <translation>无法读取 GPU（{reason}）</translation>
    </message>
    <message>
      <source>the NVIDIA driver did not answer</source>
      <translation>NVIDIA 驱动没有响应</translation>
    </message>
    <message>
      <source>the NVIDIA driver is not loaded</source>
      <translation>NVIDIA 驱动未加载</translation>
    </message>
    <message>
      <source>the NVIDIA management library for Python (nvidia-ml-py) is not installed</source>
      <translation>未安装 NVIDIA 管理库的 Python 包（nvidia-ml-py）</translation>
    </message>
    <message>
      <source>the OS does not name the CPU</source>
      <translation>操作系统没有给出 CPU 型号</translation>
    </message>
    <message>
      <source>the Start menu</source>
      <translation>开始菜单</translation>
    </message>
    <message>
      <source>the annotation says {dw}×{dh} px, the image is {w}×{h} px: the image's size is used</source>
      <translation>标注写的是 {dw}×{dh} 像素，图片实际是 {w}×{h} 像素：使用图片的尺寸</translation>
    </message>
    <message>
      <source>the applications menu</source>
      <translation>应用程序菜单</translation>
    </message>
    <message>
      <source>the checkpoint file</source>
      <translation>检查点文件</translation>
    </message>
    <message>
      <source>the classes to keep, in this order (others are left out)</source>
      <translation>要保留的类别，按此顺序（其余的略去）</translation>
    </message>
    <message>
      <source>the command that runs YOLO Studio there (default: yolostudio)</source>
      <translation>在那台机器上运行 YOLO Studio 的命令（默认：yolostudio）</translation>
    </message>
    <message>
      <source>the confidence of the best F1 ({f1}), as the evaluation chose it</source>
      <translation>最佳 F1（{f1}）的置信度，与评估的选择相同</translation>
    </message>
    <message>
      <source>the container's CPU quota ({quota:g} CPUs)</source>
      <translation>容器的 CPU 配额（{quota:g} 个 CPU）</translation>
    </message>
    <message>
      <source>the dataset to add them to</source>
      <translation>要加入的数据集</translation>
    </message>
    <message>
      <source>the dataset's data.yaml</source>
      <translation>数据集的 data.yaml</translation>
    </message>
    <message>
      <source>the driver's libraries and its loaded kernel module are different versions</source>
      <translation>驱动的库与已加载的内核模块版本不同</translation>
    </message>
    <message>
      <source>the export's folder, or a COCO .json file</source>
      <translation>导出的文件夹，或一个 COCO .json 文件</translation>
    </message>
    <message>
      <source>the file is {size} bytes, too large to check (a model YAML is a few kB).</source>
      <translation>该文件有 {size} 字节，太大而无法检查（模型 YAML 只有几 kB）。</translation>
    </message>
    <message>
      <source>the first choice is not served by the index; see the reason above</source>
      <translation>索引不提供首选构建；原因见上文</translation>
    </message>
    <message>
      <source>the folder of new images</source>
      <translation>新图片所在的文件夹</translation>
    </message>
    <message>
      <source>the highest confidence at which recall over all classes is at least {target}</source>
      <translation>所有类别合计召回率不低于 {target} 的最高置信度</translation>
    </message>
    <message>
      <source>the image cannot be read ({error}); its {n} boxes are left out</source>
      <translation>无法读取图片（{error}）；它的 {n} 个框被略去</translation>
    </message>
    <message>
      <source>the image could not be read: {reason}</source>
      <translation>无法读取图片：{reason}</translation>
    </message>
    <message>
      <source>the installer again, with the same options</source>
      <translation>用相同选项再次运行安装程序</translation>
    </message>
    <message>
      <source>the label's box may be sloppy</source>
      <translation>标注的框可能不准</translation>
    </message>
    <message>
      <source>the label's class may be wrong</source>
      <translation>标注的类别可能有误</translation>
    </message>
    <message>
      <source>the launcher ended this rank (signal {signum})</source>
      <translation>启动器结束了这个进程（信号 {signum}）</translation>
    </message>
    <message>
      <source>the local AMP check: FP16 and FP32 results differ</source>
      <translation>本地 AMP 检查：FP16 与 FP32 的结果不一致</translation>
    </message>
    <message>
      <source>the longest the training may take (2h, 90m, 1h30m)</source>
      <translation>训练最多可以花多长时间（2h、90m、1h30m）</translation>
    </message>
    <message>
      <source>the lowest confidence with at most {limit} false alarms per 100 images</source>
      <translation>每 100 张图片误报不超过 {limit} 次的最低置信度</translation>
    </message>
    <message>
      <source>the machine has no internet: a wheel set made here (pip download) is sent too</source>
      <translation>该机器无法上网：同时发送在本机生成的 wheel 包集（pip download）</translation>
    </message>
    <message>
      <source>the machine the run is on (may be left out when only one is added)</source>
      <translation>训练所在的机器（只添加了一台时可以省略）</translation>
    </message>
    <message>
      <source>the measure job failed</source>
      <translation>测量任务失败</translation>
    </message>
    <message>
      <source>the model found nothing: an empty image, or everything missed</source>
      <translation>模型什么都没找到：图片为空，或全部漏检</translation>
    </message>
    <message>
      <source>the most trials to run (default: as many as the budget allows)</source>
      <translation>最多运行的试验数（默认：时间预算允许的数量）</translation>
    </message>
    <message>
      <source>the namespace could not be set up ({reason})</source>
      <translation>无法设置命名空间（{reason}）</translation>
    </message>
    <message>
      <source>the namespace holds other interfaces ({names})</source>
      <translation>命名空间中还有其他网络接口（{names}）</translation>
    </message>
    <message>
      <source>the new dataset's folder (new or empty)</source>
      <translation>新数据集的文件夹（新建或为空）</translation>
    </message>
    <message>
      <source>the official checkpoints and what is on this machine</source>
      <translation>官方检查点及本机已有的权重</translation>
    </message>
    <message>
      <source>the page's language (default: the app's)</source>
      <translation>页面的语言（默认：应用的语言）</translation>
    </message>
    <message>
      <source>the picture embedded in this file (imageData) cannot be decoded as an image; its {n} box is left out</source>
      <translation>此文件中嵌入的图片（imageData）无法解码为图片；它的 {n} 个框已略去</translation>
    </message>
    <message>
      <source>the picture embedded in this file (imageData) cannot be decoded as an image; its {n} boxes are left out</source>
      <translation>此文件中嵌入的图片（imageData）无法解码为图片；它的 {n} 个框已略去</translation>
    </message>
    <message>
      <source>the probe exited with code {code}</source>
      <translation>探测进程以代码 {code} 退出</translation>
    </message>
    <message>
      <source>the queue to list</source>
      <translation>要列出的队列</translation>
    </message>
    <message>
      <source>the review queue</source>
      <translation>审核队列</translation>
    </message>
    <message>
      <source>the review queue (default: RUN-DIR); an existing one gets the new images</source>
      <translation>审核队列（默认：RUN-DIR）；已有的队列会加入新图片</translation>
    </message>
    <message>
      <source>the run is on this machine (SSH)</source>
      <translation>训练在这台机器上（SSH）</translation>
    </message>
    <message>
      <source>the run whose best.pt proposes (name or folder)</source>
      <translation>用其 best.pt 给出建议的训练（名称或文件夹）</translation>
    </message>
    <message>
      <source>the run's name on the machine</source>
      <translation>训练在那台机器上的名称</translation>
    </message>
    <message>
      <source>the runs on this machine (SSH)</source>
      <translation>这台机器上的训练记录（SSH）</translation>
    </message>
    <message>
      <source>the same dataset as {run}</source>
      <translation>与 {run} 的数据集相同</translation>
    </message>
    <message>
      <source>the same pixels as {kept}: imported once, with its boxes</source>
      <translation>与 {kept} 像素相同：只导入一次，带其标注框</translation>
    </message>
    <message>
      <source>the saved machines</source>
      <translation>已保存的机器</translation>
    </message>
    <message>
      <source>the source folder to install from</source>
      <translation>用于安装的源文件夹</translation>
    </message>
    <message>
      <source>the source's format (default: detected)</source>
      <translation>源数据的格式（默认：自动识别）</translation>
    </message>
    <message>
      <source>the split to add them to (default: train)</source>
      <translation>要加入的划分（默认：train）</translation>
    </message>
    <message>
      <source>the test kernel ran on: {names}</source>
      <translation>测试内核已在以下 GPU 上运行：{names}</translation>
    </message>
    <message>
      <source>the training image size: the copy's long side (default: 640)</source>
      <translation>训练图片尺寸：副本的长边（默认：640）</translation>
    </message>
    <message>
      <source>the trial failed</source>
      <translation>试验失败</translation>
    </message>
    <message>
      <source>the worker already runs threads, and only a single-threaded process can enter a namespace</source>
      <translation>工作进程已在运行多个线程，而只有单线程进程才能进入命名空间</translation>
    </message>
    <message>
      <source>the workspace folder there (default: ~/{folder})</source>
      <translation>那台机器上的工作区文件夹（默认：~/{folder}）</translation>
    </message>
    <message>
      <source>then run the installer again.</source>
      <translation>然后重新运行安装程序。</translation>
    </message>
    <message>
      <source>then start YOLO Studio again.</source>
      <translation>然后重新启动 YOLO Studio。</translation>
    </message>
    <message>
      <source>this PyTorch has no kernels for sm_{cc}</source>
      <translation>此 PyTorch 没有 sm_{cc} 的内核</translation>
    </message>
    <message>
      <source>this facts file is not valid: {reason}</source>
      <translation>该环境信息文件无效：{reason}</translation>
    </message>
    <message>
      <source>this system does not allow user network namespaces ({reason})</source>
      <translation>此系统不允许用户网络命名空间（{reason}）</translation>
    </message>
    <message>
      <source>threads to use (default: all cores)</source>
      <translation>使用的线程数（默认：全部核心）</translation>
    </message>
    <message>
      <source>time budget</source>
      <translation>时间预算</translation>
    </message>
    <message>
      <source>time limit</source>
      <translation>时间上限</translation>
    </message>
    <message>
      <source>time per batch upload</source>
      <translation>每次批次上传耗时</translation>
    </message>
    <message>
      <source>timing FP32 and INT8</source>
      <translation>正在测量 FP32 与 INT8 的耗时</translation>
    </message>
    <message>
      <source>timing {format}</source>
      <translation>正在测量 {format} 的速度</translation>
    </message>
    <message>
      <source>to accept it, add --accept-host-key {fingerprint}</source>
      <translation>要接受它，请加上 --accept-host-key {fingerprint}</translation>
    </message>
    <message>
      <source>torch</source>
      <translation>torch</translation>
    </message>
    <message>
      <source>torch CUDA</source>
      <translation>torch CUDA</translation>
    </message>
    <message>
      <source>torch CUDA available</source>
      <translation>torch CUDA 可用</translation>
    </message>
    <message>
      <source>torch arch list</source>
      <translation>torch 支持的 GPU 架构列表</translation>
    </message>
    <message>
      <source>torch in the worker saw no usable CUDA device while NVML reports {n} GPU(s). Each step takes many times longer than it would on the GPU.</source>
      <translation>工作进程中的 torch 找不到可用的 CUDA 设备，而 NVML 报告有 {n} 块 GPU。每一步都比在 GPU 上慢很多倍。</translation>
    </message>
    <message>
      <source>torch installed</source>
      <translation>torch 是否已安装</translation>
    </message>
    <message>
      <source>torch sees a GPU but the NVIDIA management library is missing, so the app cannot show GPU utilisation, temperature or throttling.</source>
      <translation>torch 能看到 GPU，但缺少 NVIDIA 管理库，所以应用无法显示 GPU 利用率、温度或降频。</translation>
    </message>
    <message>
      <source>torch version</source>
      <translation>torch 版本</translation>
    </message>
    <message>
      <source>torch wheel CUDA</source>
      <translation>torch 包的 CUDA</translation>
    </message>
    <message>
      <source>torch {torch} (CUDA {cuda}) · yolov5 {yolov5} · {device}</source>
      <translation>torch {torch}（CUDA {cuda}）· yolov5 {yolov5} · {device}</translation>
    </message>
    <message>
      <source>torch's CUDA {cuda} runtime needs driver {floor} or newer; with driver {driver} CUDA cannot start and training falls back to the CPU. Either install the wheel that fits this driver (the command below) or update the driver to {wanted} or newer.</source>
      <translation>torch 的 CUDA {cuda} 运行时需要 {floor} 或更新的驱动；使用 {driver} 驱动时 CUDA 无法启动，训练会退回到 CPU。可以安装适合这个驱动的版本（见下方命令），或把驱动更新到 {wanted} 或更新版本。</translation>
    </message>
    <message>
      <source>torch's CUDA {cuda} runtime needs driver {floor} or newer; with driver {driver} CUDA cannot start and training falls back to the CPU. {why}</source>
      <translation>torch 的 CUDA {cuda} 运行时需要驱动 {floor} 或更新版本；在驱动 {driver} 上 CUDA 无法启动，训练会退回 CPU。{why}</translation>
    </message>
    <message>
      <source>torch.cuda.is_available() is False</source>
      <translation>torch.cuda.is_available() 为 False</translation>
    </message>
    <message>
      <source>train a model (runs in a worker process)</source>
      <translation>训练模型（在工作进程中运行）</translation>
    </message>
    <message>
      <source>train at this image size instead of choosing one</source>
      <translation>以这个图片尺寸训练，而不是自动选择</translation>
    </message>
    <message>
      <source>train on a machine added with 'yolostudio machine add' (the dataset is sent there; the run keeps going if the link drops)</source>
      <translation>在用 'yolostudio machine add' 添加的机器上训练（数据集会发送过去；连接断开时训练会继续）</translation>
    </message>
    <message>
      <source>train on the first GPU once the Environment page shows CUDA working</source>
      <translation>等环境页面显示 CUDA 正常后，在第一块 GPU 上训练</translation>
    </message>
    <message>
      <source>training GPU (--device)</source>
      <translation>训练用 GPU（--device）</translation>
    </message>
    <message>
      <source>training's best epoch</source>
      <translation>训练的最佳轮次</translation>
    </message>
    <message>
      <source>trial {trial}: {state}, {n} epoch, fitness {fitness}</source>
      <translation>试验 {trial}：{state}，{n} 轮，适应度 {fitness}</translation>
    </message>
    <message>
      <source>trial {trial}: {state}, {n} epochs, fitness {fitness}</source>
      <translation>试验 {trial}：{state}，{n} 轮，适应度 {fitness}</translation>
    </message>
    <message>
      <source>trials</source>
      <translation>试验数</translation>
    </message>
    <message>
      <source>trust the file without asking</source>
      <translation>不询问，直接信任该文件</translation>
    </message>
    <message>
      <source>two boxes of different classes on one object</source>
      <translation>同一物体上有两个不同类别的框</translation>
    </message>
    <message>
      <source>unavailable ({reason})</source>
      <translation>不可用（{reason}）</translation>
    </message>
    <message>
      <source>uncertainty</source>
      <translation>不确定度</translation>
    </message>
    <message>
      <source>uncorrectable ECC errors (since the driver loaded)</source>
      <translation>不可纠正的 ECC 错误（自驱动加载以来）</translation>
    </message>
    <message>
      <source>uninstall: also delete the workspace (runs, datasets made by the app) and settings</source>
      <translation>卸载：同时删除工作区（训练记录、应用生成的数据集）和设置</translation>
    </message>
    <message>
      <source>uninstall: do not ask</source>
      <translation>卸载：不询问</translation>
    </message>
    <message>
      <source>unknown</source>
      <translation>未知</translation>
    </message>
    <message>
      <source>unknown: the data.yaml cannot be read now</source>
      <translation>未知：现在读不到 data.yaml</translation>
    </message>
    <message>
      <source>unreadable</source>
      <translation>无法读取</translation>
    </message>
    <message>
      <source>up to date</source>
      <translation>已是最新</translation>
    </message>
    <message>
      <source>usable CPU count</source>
      <translation>可用 CPU 数</translation>
    </message>
    <message>
      <source>usable CPUs</source>
      <translation>可用 CPU</translation>
    </message>
    <message>
      <source>usable GPU (--device)</source>
      <translation>可用 GPU（--device）</translation>
    </message>
    <message>
      <source>use a checkpoint of {name}'s weights store (a name such as yolov5s.pt)</source>
      <translation>请使用 {name} 权重库中的检查点（例如 yolov5s.pt 这样的名称）</translation>
    </message>
    <message>
      <source>use letters, digits, '-', '_' or '.', without slashes</source>
      <translation>请使用字母、数字、'-'、'_' 或 '.'，不要包含斜杠</translation>
    </message>
    <message>
      <source>utilisation</source>
      <translation>利用率</translation>
    </message>
    <message>
      <source>validate DATA.yaml and every image and label it names</source>
      <translation>检查 DATA.yaml 及其列出的每张图片和标签</translation>
    </message>
    <message>
      <source>validating {weights} on the {split} split</source>
      <translation>正在 {split} 划分上验证 {weights}</translation>
    </message>
    <message>
      <source>verified</source>
      <translation>已验证</translation>
    </message>
    <message>
      <source>verified: {file} (the machine's own provenance check, bytes unchanged)</source>
      <translation>已验证：{file}（那台机器自己的来源检查通过，字节未改变）</translation>
    </message>
    <message>
      <source>verifying {format} against PyTorch</source>
      <translation>正在将 {format} 与 PyTorch 对比验证</translation>
    </message>
    <message>
      <source>waiting for the server</source>
      <translation>正在等待服务器</translation>
    </message>
    <message>
      <source>warning</source>
      <translation>警告</translation>
    </message>
    <message>
      <source>warning: {message}</source>
      <translation>警告：{message}</translation>
    </message>
    <message>
      <source>weights store</source>
      <translation>权重库</translation>
    </message>
    <message>
      <source>what is searched: yolov5's evolve bounds, or a YAML file of 'name: [low, high]' (imgsz, model, batch: lists of values)</source>
      <translation>搜索什么：yolov5 的 evolve 范围，或一个写有 'name: [low, high]' 的 YAML 文件（imgsz、model、batch：取值列表）</translation>
    </message>
    <message>
      <source>what you type after 'ssh': host, user@host or an alias of your ssh config</source>
      <translation>你在 'ssh' 后面输入的内容：主机、user@host 或 ssh 配置中的别名</translation>
    </message>
    <message>
      <source>wheel arch list</source>
      <translation>包的架构列表</translation>
    </message>
    <message>
      <source>where to write the copy (default: the workspace's cache)</source>
      <translation>副本的写入位置（默认：工作区的缓存）</translation>
    </message>
    <message>
      <source>where to write the page (default: deployment-report.html in the run folder)</source>
      <translation>页面写到哪里（默认：训练文件夹中的 deployment-report.html）</translation>
    </message>
    <message>
      <source>which split to evaluate (default: val; train needs --kfold)</source>
      <translation>要评估的划分（默认：val；train 需要 --kfold）</translation>
    </message>
    <message>
      <source>why</source>
      <translation>原因</translation>
    </message>
    <message>
      <source>with --machine: start it there and return ('yolostudio fetch RUN --machine NAME' brings the result back)</source>
      <translation>与 --machine 一起使用：在那里启动后立即返回（'yolostudio fetch RUN --machine NAME' 取回结果）</translation>
    </message>
    <message>
      <source>with --offline: send this folder of wheels instead of downloading them here</source>
      <translation>与 --offline 一起使用：发送此 wheel 文件夹，而不是在本机下载</translation>
    </message>
    <message>
      <source>with --repair: do not ask</source>
      <translation>与 --repair 一起使用：不询问</translation>
    </message>
    <message>
      <source>within the limit</source>
      <translation>在限度之内</translation>
    </message>
    <message>
      <source>workers</source>
      <translation>加载进程</translation>
    </message>
    <message>
      <source>workers start by</source>
      <translation>加载进程启动方式</translation>
    </message>
    <message>
      <source>workers {w}: {rate:.0f} img/s</source>
      <translation>{w} 个加载进程：{rate:.0f} 张/秒</translation>
    </message>
    <message>
      <source>workspace</source>
      <translation>工作区</translation>
    </message>
    <message>
      <source>workspace folder (runs, demo dataset); default: the app's data folder</source>
      <translation>工作区文件夹（训练记录、演示数据集）；默认：应用的数据文件夹</translation>
    </message>
    <message>
      <source>write a copy resized to the training size (faster loading), with a data.yaml to train on</source>
      <translation>写一份缩放到训练尺寸的副本（加载更快），并附带可直接训练的 data.yaml</translation>
    </message>
    <message>
      <source>write a queue's accepted images and labels into a dataset</source>
      <translation>把队列中已接受的图片和标注写入数据集</translation>
    </message>
    <message>
      <source>write a run's deployment report: one printable page of its model, operating confidence, per-class precision and recall with intervals, false alarms, latency and INT8 cost</source>
      <translation>写出训练的部署报告：一页可打印的文档，含模型、工作置信度、各类别精确率和召回率及其区间、误报、延迟和 INT8 的代价</translation>
    </message>
    <message>
      <source>write no YOLO label files</source>
      <translation>不写出 YOLO 标注文件</translation>
    </message>
    <message>
      <source>write no annotated images or videos</source>
      <translation>不写出标注后的图片或视频</translation>
    </message>
    <message>
      <source>write the demo dataset and print its data.yaml path</source>
      <translation>写出演示数据集并输出其 data.yaml 路径</translation>
    </message>
    <message>
      <source>write the gathered facts to FILE</source>
      <translation>把收集到的检测信息写入 FILE</translation>
    </message>
    <message>
      <source>write the images of the errors to FILE, one path a line, likeliest label mistake first</source>
      <translation>把有错误的图片写入 FILE，每行一个路径，最可能的标注错误在前</translation>
    </message>
    <message>
      <source>write the prepared copy when the recommendation includes one</source>
      <translation>当推荐中包含预处理副本时写出它</translation>
    </message>
    <message>
      <source>write the result (JSON) to FILE, for yolostudio train --config</source>
      <translation>把结果（JSON）写入 FILE，供 yolostudio train --config 使用</translation>
    </message>
    <message>
      <source>wrong class</source>
      <translation>类别错误</translation>
    </message>
    <message>
      <source>yes</source>
      <translation>是</translation>
    </message>
    <message>
      <source>yes (its version was not recorded)</source>
      <translation>是（未记录其版本）</translation>
    </message>
    <message>
      <source>yolostudio dataset check {path}</source>
      <translation>yolostudio dataset check {path}</translation>
    </message>
    <message>
      <source>yolov5 AutoBatch would pick {b} (extrapolated from tiny batches at 80% of free memory, without optimizer state, EMA or other processes)</source>
      <translation>yolov5 AutoBatch 会选择 {b}（用很小的批次外推到可用显存的 80%，不计优化器状态、EMA 或其他进程）</translation>
    </message>
    <message>
      <source>yolov5 checks only training labels against nc, so validation scores a class that does not exist and fails when it looks up its name.</source>
      <translation>yolov5 只用 nc 检查训练标签，所以验证时会给一个不存在的类别打分，并在查找其名称时失败。</translation>
    </message>
    <message>
      <source>yolov5 does not find {meant} that way and trains without it.</source>
      <translation>yolov5 这样找不到 {meant}，会在没有它的情况下训练。</translation>
    </message>
    <message>
      <source>yolov5 does not read .{suffix} images and skips this file silently; convert it to JPEG or PNG if it should be used.</source>
      <translation>yolov5 不读取 .{suffix} 图片，会静默跳过这个文件；如果要使用它，请转换为 JPEG 或 PNG。</translation>
    </message>
    <message>
      <source>yolov5 finds objects on grids of 8, 16 and 32 px; a box a few pixels wide is hard to see. A larger image size costs about {factor}× the compute per image.</source>
      <translation>yolov5 在 8、16、32 像素的网格上寻找目标；只有几个像素宽的框很难看到。更大的图片尺寸每张图约需 {factor} 倍计算量。</translation>
    </message>
    <message>
      <source>yolov5 given several GPUs in one process falls back to DataParallel, which is slower than one GPU in many cases. Name the GPUs in Device — the Train page's GPU choice, or 'yolostudio train DATA.yaml {fix}' — and the app starts one training process per GPU (DDP through PyTorch's launcher); the batch is the total, split between them.</source>
      <translation>yolov5 在一个进程中使用多块 GPU 时会退回到 DataParallel，很多情况下比单块 GPU 还慢。请在“设备”中指定这些 GPU——训练页的 GPU 选择，或 'yolostudio train DATA.yaml {fix}'——应用会为每块 GPU 启动一个训练进程（通过 PyTorch 启动器的 DDP）；批大小是总数，由它们分摊。</translation>
    </message>
    <message>
      <source>yolov5 installed</source>
      <translation>yolov5 已安装</translation>
    </message>
    <message>
      <source>yolov5 is not installed, so its search bounds cannot be read. Install the app's requirements (pip install -e .).</source>
      <translation>未安装 yolov5，因此无法读取它的搜索范围。请安装本应用的依赖（pip install -e .）。</translation>
    </message>
    <message>
      <source>yolov5 keeps the decoded images in RAM: decoding leaves every epoch after the first.</source>
      <translation>yolov5 把解码后的图片保存在内存中：从第二轮起不再解码。</translation>
    </message>
    <message>
      <source>yolov5 keeps {train} training and {val} validation workers alive for the whole run; with the training process they need about {need:.1f} GB, and {available:.1f} GB is free. {risk} --workers {fits} fits.</source>
      <translation>yolov5 在整个训练期间保持 {train} 个训练和 {val} 个验证加载进程；加上训练进程约需 {need:.1f} GB，而可用的只有 {available:.1f} GB。{risk} --workers {fits} 可以放得下。</translation>
    </message>
    <message>
      <source>yolov5 looks for the label of {image} under the name {expected} (a lower-case '.txt'), so it does not read this file and trains the image as a background (no objects). Rename the file to end in '.txt'.</source>
      <translation>yolov5 以名称 {expected}（小写 '.txt'）查找 {image} 的标签，因此不会读取此文件，并把该图片当作背景（无目标）训练。请将文件重命名为以 '.txt' 结尾。</translation>
    </message>
    <message>
      <source>yolov5 reuses this label cache while the files' paths and total size stay the same, so it would train on the labels of its last scan: {n} labels have changed since (first {image}). YOLO Studio's trainings set it aside so yolov5 reads the labels again; delete it if you train with yolov5 yourself.</source>
      <translation>只要文件路径和总大小不变，yolov5 就会重用此标签缓存，因此它会用上次扫描时的标签训练：此后已有 {n} 个标签发生变化（第一个是 {image}）。YOLO Studio 的训练会将其移开，让 yolov5 重新读取标签；如果你直接用 yolov5 训练，请删除它。</translation>
    </message>
    <message>
      <source>yolov5 sizes its data loaders from os.cpu_count() = {logical}, the machine's logical CPUs, not from {limit}. With --workers {workers} and batch {batch} it starts {train} training and {val} validation workers, which take turns on {usable} CPUs with the training process: each batch takes longer to prepare and the GPU waits. Use at most {fits} workers, or allow the container more CPUs.</source>
      <translation>yolov5 根据 os.cpu_count() = {logical}（机器的逻辑 CPU 数）而不是 {limit} 来确定数据加载进程数。在 --workers {workers} 和批大小 {batch} 下，它会启动 {train} 个训练和 {val} 个验证加载进程，与训练进程轮流使用 {usable} 个 CPU：每个批次准备得更慢，GPU 只能等待。最多使用 {fits} 个加载进程，或给容器更多 CPU。</translation>
    </message>
    <message>
      <source>yolov5 stops before training with 'Dataset not found'.</source>
      <translation>yolov5 会在训练前以 'Dataset not found' 停止。</translation>
    </message>
    <message>
      <source>yolov5 stops before training with 'Error loading data from … does not exist'.</source>
      <translation>yolov5 会在训练前以 'Error loading data from … does not exist' 停止。</translation>
    </message>
    <message>
      <source>yolov5 stops with 'No images found'.</source>
      <translation>yolov5 会以 'No images found' 停止。</translation>
    </message>
    <message>
      <source>yolov5 trains in FP32 on the CPU (AMP is for CUDA).</source>
      <translation>yolov5 在 CPU 上以 FP32 训练（AMP 用于 CUDA）。</translation>
    </message>
    <message>
      <source>yolov5 turns AMP on, but this GPU has no tensor cores: little speed-up.</source>
      <translation>yolov5 会开启 AMP，但这块 GPU 没有张量核心：提速很少。</translation>
    </message>
    <message>
      <source>yolov5 workers</source>
      <translation>yolov5 加载进程</translation>
    </message>
    <message>
      <source>yolov5 would skip {n} image it cannot read.</source>
      <translation>yolov5 会跳过 {n} 张它读不了的图片。</translation>
    </message>
    <message>
      <source>yolov5 would skip {n} images it cannot read.</source>
      <translation>yolov5 会跳过 {n} 张它读不了的图片。</translation>
    </message>
    <message>
      <source>yolov5 would train without {n} image it cannot read; nothing was started.</source>
      <translation>yolov5 会跳过 {n} 张它读不了的图片进行训练；没有开始训练。</translation>
    </message>
    <message>
      <source>yolov5 would train without {n} images it cannot read; nothing was started.</source>
      <translation>yolov5 会跳过 {n} 张它读不了的图片进行训练；没有开始训练。</translation>
    </message>
    <message>
      <source>yolov5 {version}</source>
      <translation>yolov5 {version}</translation>
    </message>
    <message>
      <source>yolov5's default --workers 8, which it caps at the cores and the batch: {w}.</source>
      <translation>yolov5 默认 --workers 8，它按核心数和批大小封顶为 {w}。</translation>
    </message>
    <message>
      <source>yolov5's default: no cache (the defaults are as fast here).</source>
      <translation>yolov5 默认：不缓存（默认设置在这里一样快）。</translation>
    </message>
    <message>
      <source>yolov5's defaults are as fast here as anything measured ({best}: {rate:.0f} img/s against {default:.0f}, less than {margin:.0%} more): the wizard keeps them — the original images, no cache, {w} workers.</source>
      <translation>在这台机器上，yolov5 的默认设置与测得的任何选择一样快（{best}：{rate:.0f} 张/秒，默认 {default:.0f}，快不到 {margin:.0%}）：向导保留默认设置——原图、不缓存、{w} 个加载进程。</translation>
    </message>
    <message>
      <source>yolov5's defaults: {rate:.0f} img/s (workers {w})</source>
      <translation>yolov5 默认设置：{rate:.0f} 张/秒（加载进程 {w}）</translation>
    </message>
    <message>
      <source>yolov5's guide recommends pretrained weights for small and medium datasets; from random weights a few hundred images rarely reach a useful mAP.</source>
      <translation>yolov5 的指南建议中小数据集使用预训练权重；从随机权重开始，几百张图片很少能达到有用的 mAP。</translation>
    </message>
    <message>
      <source>yolov5's label cache {path} did not match the label files (or was not only label data): set aside as {aside}, so yolov5 reads the labels again.</source>
      <translation>yolov5 的标签缓存 {path} 与标签文件不符（或不只是标签数据）：已移为 {aside}，让 yolov5 重新读取标签。</translation>
    </message>
    <message>
      <source>yolov5's models are trained at 640.</source>
      <translation>yolov5 的模型是在 640 下训练的。</translation>
    </message>
    <message>
      <source>yolov5's scan accepts it, then training aborts at start ('Label class {cls} exceeds nc={nc}').</source>
      <translation>yolov5 的扫描会接受它，然后训练在开始时中止（'Label class {cls} exceeds nc={nc}'）。</translation>
    </message>
    <message>
      <source>yolov5n … yolov5x6 (see: weights list)</source>
      <translation>yolov5n … yolov5x6（见：weights list）</translation>
    </message>
    <message>
      <source>your release</source>
      <translation>你的版本</translation>
    </message>
    <message>
      <source>{changes} since {run}</source>
      <translation>自 {run} 以来：{changes}</translation>
    </message>
    <message>
      <source>{command}   # or unset it to use every GPU</source>
      <translation>{command}   # 或取消它以使用所有 GPU</translation>
    </message>
    <message>
      <source>{cores} cores, {workers} workers: more workers can decode and augment in parallel</source>
      <translation>{cores} 个核心，{workers} 个加载进程：更多进程可以并行解码和增强图片</translation>
    </message>
    <message>
      <source>{count} GPUs: train on all of them with DDP</source>
      <translation>{count} 块 GPU：用 DDP 在全部 GPU 上训练</translation>
    </message>
    <message>
      <source>{count} labelled in train against a median of {median} per class (yolov5's guide: 10,000 instances per class for best results).</source>
      <translation>训练集中标注了 {count} 个，而各类别中位数为 {median}（yolov5 的指南：每类 10,000 个实例效果最好）。</translation>
    </message>
    <message>
      <source>{c} cores</source>
      <translation>{c} 个核心</translation>
    </message>
    <message>
      <source>{c} usable cores / {r} rank(s)</source>
      <translation>{c} 个可用核心 / {r} 个进程</translation>
    </message>
    <message>
      <source>{debian}   (Debian/Ubuntu), or: {fedora}   (Fedora/RHEL); elsewhere the packages that provide these files</source>
      <translation>{debian}   （Debian/Ubuntu），或：{fedora}   （Fedora/RHEL）；其他发行版请安装提供这些文件的软件包</translation>
    </message>
    <message>
      <source>{done} of {total}</source>
      <translation>{done} / {total}</translation>
    </message>
    <message>
      <source>{entry} is listed but does not exist. yolov5 counts it as corrupt ('No such file or directory') and trains without it.</source>
      <translation>{entry} 列在列表中但不存在。yolov5 会把它当作损坏文件（'No such file or directory'）并在训练时跳过。</translation>
    </message>
    <message>
      <source>{entry} is not a file but a pipe, socket or device. yolov5 would wait forever reading it; remove it from the list.</source>
      <translation>{entry} 不是文件，而是管道、套接字或设备。yolov5 读取它会永远等待；请把它从列表中删除。</translation>
    </message>
    <message>
      <source>{entry}: yolov5 does not read this kind of image and skips it silently.</source>
      <translation>{entry}：yolov5 不读取这种图片，会静默跳过它。</translation>
    </message>
    <message>
      <source>{epoch} per epoch predicted on this machine</source>
      <translation>本机预测每轮 {epoch}</translation>
    </message>
    <message>
      <source>{eta} left</source>
      <translation>剩余 {eta}</translation>
    </message>
    <message>
      <source>{e} errors, {w} warnings, {i} notes. Fix the errors before training.</source>
      <translation>{e} 个错误，{w} 个警告，{i} 条提示。请在训练前修复错误。</translation>
    </message>
    <message>
      <source>{fact} was not read</source>
      <translation>未读取到 {fact}</translation>
    </message>
    <message>
      <source>{field}: expected a list</source>
      <translation>{field}：应为列表</translation>
    </message>
    <message>
      <source>{field}: missing</source>
      <translation>{field}：缺失</translation>
    </message>
    <message>
      <source>{field}: unexpected value {value!r}</source>
      <translation>{field}：意外的值 {value!r}</translation>
    </message>
    <message>
      <source>{field}: {value!r} is not a finite number of at least 0</source>
      <translation>{field}：{value!r} 不是不小于 0 的有限数值</translation>
    </message>
    <message>
      <source>{field}: {value!r} is not a version number</source>
      <translation>{field}：{value!r} 不是版本号</translation>
    </message>
    <message>
      <source>{files:.0f} images/s ({speed:.0f} MB/s)</source>
      <translation>每秒 {files:.0f} 张图片（{speed:.0f} MB/s）</translation>
    </message>
    <message>
      <source>{file} cannot be read: {reason}</source>
      <translation>无法读取 {file}：{reason}</translation>
    </message>
    <message>
      <source>{file} holds a {kind}, not the run's settings (a JSON object).</source>
      <translation>{file} 中是一个 {kind}，而不是训练的设置（一个 JSON 对象）。</translation>
    </message>
    <message>
      <source>{file} in the weights store is not the file that was stored (its size or record differs).</source>
      <translation>权重库中的 {file} 不是当初保存的文件（大小或记录不同）。</translation>
    </message>
    <message>
      <source>{file} in the weights store is not the file that was stored, so it is not used: training from scratch needs many more epochs. Remove it and get it again.</source>
      <translation>权重库中的 {file} 不是当初保存的文件，所以不会使用：从头训练需要多得多的轮数。请删除它并重新获取。</translation>
    </message>
    <message>
      <source>{file} is already on this machine.</source>
      <translation>{file} 已在本机。</translation>
    </message>
    <message>
      <source>{file} is empty (0 bytes): its write was cut short.</source>
      <translation>{file} 为空（0 字节）：写入被中断。</translation>
    </message>
    <message>
      <source>{file} is larger than {limit} MB: it is not a run's settings.</source>
      <translation>{file} 大于 {limit} MB：它不是训练的设置文件。</translation>
    </message>
    <message>
      <source>{file} is missing.</source>
      <translation>{file} 缺失。</translation>
    </message>
    <message>
      <source>{file} is not a PyTorch checkpoint (no data.pkl inside).</source>
      <translation>{file} 不是 PyTorch 检查点（其中没有 data.pkl）。</translation>
    </message>
    <message>
      <source>{file} is not a complete checkpoint ({reason}): its write was cut short.</source>
      <translation>{file} 不是完整的检查点（{reason}）：写入被中断。</translation>
    </message>
    <message>
      <source>{file} is not a file (a folder or a device is in its place).</source>
      <translation>{file} 不是文件（那里是一个文件夹或设备）。</translation>
    </message>
    <message>
      <source>{file} is not on this machine. YOLO Studio downloads nothing without being asked.</source>
      <translation>{file} 不在本机。YOLO Studio 不会在未经你同意时下载任何东西。</translation>
    </message>
    <message>
      <source>{file} is not valid JSON: {reason}</source>
      <translation>{file} 不是有效的 JSON：{reason}</translation>
    </message>
    <message>
      <source>{file} is truncated: {entry} runs past its end.</source>
      <translation>{file} 已被截断：{entry} 超出了文件末尾。</translation>
    </message>
    <message>
      <source>{file}'s SHA-256 is {got}, not the published {want}: refused and deleted.</source>
      <translation>{file} 的 SHA-256 是 {got}，而不是公布的 {want}：已拒绝并删除。</translation>
    </message>
    <message>
      <source>{file}: 'spec' is not an object; the run's settings cannot be read.</source>
      <translation>{file}：'spec' 不是对象；无法读取训练的设置。</translation>
    </message>
    <message>
      <source>{file}: category ids mix numbers and text ({number} and {text}); COCO ids are numbers. Fix the ids in that file, then import again.</source>
      <translation>{file}：类别 id 混用了数字和文本（{number} 和 {text}）；COCO 的 id 是数字。请修正该文件中的 id，然后重新导入。</translation>
    </message>
    <message>
      <source>{file}: the JSON is nested deeper than any labelling tool writes (more than a thousand levels); it is not an annotation file. Leave it out of the source.</source>
      <translation>{file}：该 JSON 的嵌套深度超过任何标注工具会写出的程度（超过一千层）；它不是标注文件。请把它移出源文件夹。</translation>
    </message>
    <message>
      <source>{file}: {key} is {value}, which is not {expected}. Correct or remove it in that file.</source>
      <translation>{file}：{key} 的值为 {value}，不是{expected}。请在该文件中更正或删除它。</translation>
    </message>
    <message>
      <source>{file}: {params:,} parameters, {layers} output layers, {classes} classes.</source>
      <translation>{file}：{params:,} 个参数，{layers} 个输出层，{classes} 个类别。</translation>
    </message>
    <message>
      <source>{file}: {what} is {value}, which no labelling tool writes. Fix or remove it in that file (or leave the file out of the source), then import again.</source>
      <translation>{file}：{what} 为 {value}，没有任何标注工具会写出这样的值。请在该文件中修正或删除它（或把该文件移出源文件夹），然后重新导入。</translation>
    </message>
    <message>
      <source>{first} is not served by {index} ({why}); {tag} also fits this machine and is installed instead.</source>
      <translation>{index} 不提供 {first}（{why}）；{tag} 也适合这台机器，改为安装它。</translation>
    </message>
    <message>
      <source>{formats}; repeat or separate with commas (default: onnx)</source>
      <translation>{formats}；可重复使用或用逗号分隔（默认：onnx）</translation>
    </message>
    <message>
      <source>{format}: NOT verified — the output differs from PyTorch beyond tolerance; the file is kept, marked unverified</source>
      <translation>{format}：未通过验证 — 输出与 PyTorch 的差异超出容差；文件已保留并标记为未验证</translation>
    </message>
    <message>
      <source>{format}: failed — {message}</source>
      <translation>{format}：失败 — {message}</translation>
    </message>
    <message>
      <source>{format}: verified against PyTorch</source>
      <translation>{format}：已与 PyTorch 对比验证</translation>
    </message>
    <message>
      <source>{free:.0f} GB free</source>
      <translation>剩余 {free:.0f} GB</translation>
    </message>
    <message>
      <source>{free:.1f} GB free</source>
      <translation>可用 {free:.1f} GB</translation>
    </message>
    <message>
      <source>{gb:.2f} GB from {n} sampled images</source>
      <translation>{gb:.2f} GB，来自 {n} 张抽样图片</translation>
    </message>
    <message>
      <source>{gflops:.1f} GFLOPs per image at 640 px; the device consumes {demand:.0f} img/s at imgsz {imgsz}</source>
      <translation>640 像素下每张图片 {gflops:.1f} GFLOPs；设备在图片尺寸 {imgsz} 下每秒消耗 {demand:.0f} 张</translation>
    </message>
    <message>
      <source>{got:.2f} M parameters instead of the published {want} M</source>
      <translation>{got:.2f} M 参数，而公布的是 {want} M</translation>
    </message>
    <message>
      <source>{got} classes instead of COCO's {want}</source>
      <translation>{got} 个类别，而 COCO 有 {want} 个</translation>
    </message>
    <message>
      <source>{got} output layers instead of {want}</source>
      <translation>{got} 个输出层，而不是 {want} 个</translation>
    </message>
    <message>
      <source>{head} {s} s</source>
      <translation>{head} {s} 秒</translation>
    </message>
    <message>
      <source>{host} port {port} offered no host key: {reason}</source>
      <translation>{host} 端口 {port} 没有提供主机密钥：{reason}</translation>
    </message>
    <message>
      <source>{hours:g} h</source>
      <translation>{hours:g} 小时</translation>
    </message>
    <message>
      <source>{h} h</source>
      <translation>{h} 小时</translation>
    </message>
    <message>
      <source>{h} h {m} min</source>
      <translation>{h} 小时 {m} 分钟</translation>
    </message>
    <message>
      <source>{image} could not be resized ({reason}); the copy holds it as it is.</source>
      <translation>{image} 无法缩放（{reason}）；副本中保留原样。</translation>
    </message>
    <message>
      <source>{image} is not an image of the dataset {data}: its label was not read or changed. The stored evaluation may have been edited; evaluate the run again.</source>
      <translation>{image} 不是数据集 {data} 中的图片：未读取也未修改它的标签。保存的评估可能被改动过；请重新评估该训练。</translation>
    </message>
    <message>
      <source>{image}: {kind}, class {cls}, confidence {conf}{issue}</source>
      <translation>{image}：{kind}，类别 {cls}，置信度 {conf}{issue}</translation>
    </message>
    <message>
      <source>{index} serves no CUDA build that fits this machine ({why}), so the CPU build is installed: training will not use the GPU until a CUDA build is installed. When the index serves {first}, run the installer again.</source>
      <translation>{index} 不提供适合这台机器的 CUDA 构建（{why}），因此安装 CPU 构建：在装上 CUDA 构建之前训练不会使用 GPU。等该索引提供 {first} 后，请再次运行安装程序。</translation>
    </message>
    <message>
      <source>{index} serves none of the PyTorch builds that fit this machine ({tags}): {why}</source>
      <translation>{index} 不提供任何适合这台机器的 PyTorch 构建（{tags}）：{why}</translation>
    </message>
    <message>
      <source>{index} serves none of the PyTorch builds that fit this machine ({tags}): {why}. Use an index that holds them (--torch-index URL).</source>
      <translation>{index} 不提供任何适合这台机器的 PyTorch 构建（{tags}）：{why}。请使用包含它们的索引（--torch-index URL）。</translation>
    </message>
    <message>
      <source>{kb:.0f} kB</source>
      <translation>{kb:.0f} kB</translation>
    </message>
    <message>
      <source>{key} {got} instead of {want}</source>
      <translation>{key} 为 {got}，而不是 {want}</translation>
    </message>
    <message>
      <source>{kill}   # only if they are yours and can stop; otherwise wait for them</source>
      <translation>{kill}   # 仅当它们是你的并且可以停止时；否则请等待它们结束</translation>
    </message>
    <message>
      <source>{kill}   # only if they are yours and can stop; {move}</source>
      <translation>{kill}   # 仅当它们是你的并且可以停止时；{move}</translation>
    </message>
    <message>
      <source>{kind} ('{message}')</source>
      <translation>{kind}（'{message}'）</translation>
    </message>
    <message>
      <source>{kind} from {low:g} to {high:g}</source>
      <translation>{low:g} 到 {high:g} 之间的{kind}</translation>
    </message>
    <message>
      <source>{kind} of at least {low:g}</source>
      <translation>不小于 {low:g} 的{kind}</translation>
    </message>
    <message>
      <source>{kind} of at most {high:g}</source>
      <translation>不大于 {high:g} 的{kind}</translation>
    </message>
    <message>
      <source>{kind}; {arch} CPU</source>
      <translation>{kind}；{arch} CPU</translation>
    </message>
    <message>
      <source>{k} trainings × ({start} s to start + {share} of the images × ({first} s for the first epoch + {more} more × {epoch} s) + {finish} s to finish), from run {run}'s own timings</source>
      <translation>{k} 次训练 ×（启动 {start} 秒 + {share} 的图片 ×（第一轮 {first} 秒 + 其后 {more} 轮 × 每轮 {epoch} 秒）+ 收尾 {finish} 秒），依据训练 {run} 自己的用时</translation>
    </message>
    <message>
      <source>{label} must be a number (got {value!r}).</source>
      <translation>{label}必须是数字（当前为 {value!r}）。</translation>
    </message>
    <message>
      <source>{label} must be from {low:g} to {high:g} (got {value}).</source>
      <translation>{label}必须在 {low:g} 到 {high:g} 之间（当前为 {value}）。</translation>
    </message>
    <message>
      <source>{label} must be one of {choices} (got {value!r}).</source>
      <translation>{label}必须是 {choices} 之一（当前为 {value!r}）。</translation>
    </message>
    <message>
      <source>{label}:</source>
      <translation>{label}：</translation>
    </message>
    <message>
      <source>{level} {code} ({n})</source>
      <translation>{level} {code}（{n}）</translation>
    </message>
    <message>
      <source>{library} is missing: this CUDA build of PyTorch takes it from its nvidia-* pip packages, which are missing or damaged. A plain reinstall would answer 'already satisfied'; a forced one restores them.</source>
      <translation>缺少 {library}：这个 CUDA 版 PyTorch 从它的 nvidia-* pip 包中取得该库，而这些包缺失或已损坏。普通的重新安装只会回答 'already satisfied'；强制重新安装才能恢复它们。</translation>
    </message>
    <message>
      <source>{mb:.1f} MB</source>
      <translation>{mb:.1f} MB</translation>
    </message>
    <message>
      <source>{mb:.1f} MB (batch {batch} × 3 × {imgsz}²)</source>
      <translation>{mb:.1f} MB（批大小 {batch} × 3 × {imgsz}²）</translation>
    </message>
    <message>
      <source>{mb:.1f} MB/s</source>
      <translation>{mb:.1f} MB/s</translation>
    </message>
    <message>
      <source>{metric} {value} on {images} images: too few images or detections to estimate how far other images would move it</source>
      <translation>{metric} {value}（{images} 张图片）：图片或检出太少，无法估计换一批图片后它会变动多少</translation>
    </message>
    <message>
      <source>{metric} {value} ± {pm} on {images} images</source>
      <translation>{metric} {value} ± {pm}（{images} 张图片）</translation>
    </message>
    <message>
      <source>{m} min</source>
      <translation>{m} 分钟</translation>
    </message>
    <message>
      <source>{name:&lt;10} {size:&gt;8} {map:&gt;7} {params:&gt;8}  {state}</source>
      <translation>{name:&lt;10} {size:&gt;8} {map:&gt;7} {params:&gt;8}  {state}</translation>
    </message>
    <message>
      <source>{names} ended unexpectedly (killed, out of memory, or crashed); the whole run stopped. Seen here: {reason}</source>
      <translation>{names} 意外结束（被终止、内存不足或崩溃）；整个训练已停止。此处看到：{reason}</translation>
    </message>
    <message>
      <source>{names} produce NaN losses in FP16 with yolov5</source>
      <translation>{names} 在 yolov5 中用 FP16 会出现 NaN 损失</translation>
    </message>
    <message>
      <source>{names}: compute capability below 7.0</source>
      <translation>{names}：计算能力低于 7.0</translation>
    </message>
    <message>
      <source>{name} (architecture unknown)</source>
      <translation>{name}（架构未知）</translation>
    </message>
    <message>
      <source>{name} ({family}, sm_{major}{minor})</source>
      <translation>{name}（{family}，sm_{major}{minor}）</translation>
    </message>
    <message>
      <source>{name} changed after the fix; its backup {name}.bak is kept</source>
      <translation>{name} 在修复之后又被修改过；其备份 {name}.bak 保留不动</translation>
    </message>
    <message>
      <source>{name} is a YOLOv5 {task} model, not a detection model.</source>
      <translation>{name} 是 YOLOv5 {task} 模型，不是检测模型。</translation>
    </message>
    <message>
      <source>{name} is already in the weights store.</source>
      <translation>权重库中已有 {name}。</translation>
    </message>
    <message>
      <source>{name} is already on this machine: {path}</source>
      <translation>{name} 已在本机：{path}</translation>
    </message>
    <message>
      <source>{name} is in use by another YOLO Studio process (pid {pid}).</source>
      <translation>{name} 正被另一个 YOLO Studio 进程（pid {pid}）使用。</translation>
    </message>
    <message>
      <source>{name} is not a PyTorch checkpoint that loads here ({kind}: {reason}).</source>
      <translation>{name} 不是能在这里加载的 PyTorch 检查点（{kind}：{reason}）。</translation>
    </message>
    <message>
      <source>{name} is not a YOLOv5 checkpoint (no YOLOv5 model inside).</source>
      <translation>{name} 不是 YOLOv5 检查点（里面没有 YOLOv5 模型）。</translation>
    </message>
    <message>
      <source>{name} is not a valid name for the weights store.</source>
      <translation>{name} 不是权重库的有效名称。</translation>
    </message>
    <message>
      <source>{name} is not a valid weights file name.</source>
      <translation>{name} 不是有效的权重文件名。</translation>
    </message>
    <message>
      <source>{name} is not an official YOLOv5 v7.0 checkpoint.</source>
      <translation>{name} 不是官方 YOLOv5 v7.0 检查点。</translation>
    </message>
    <message>
      <source>{name} is not in the weights store.</source>
      <translation>权重库中没有 {name}。</translation>
    </message>
    <message>
      <source>{name} is not the name of a search: give the name of a folder under {root}, without a path.</source>
      <translation>{name} 不是搜索的名称：请给出 {root} 下某个文件夹的名称，不要带路径。</translation>
    </message>
    <message>
      <source>{name} is not the official {model} checkpoint: {differences}.</source>
      <translation>{name} 不是官方的 {model} 检查点：{differences}。</translation>
    </message>
    <message>
      <source>{name} is unreadable: {reason}</source>
      <translation>无法读取 {name}：{reason}</translation>
    </message>
    <message>
      <source>{name} — {n} box</source>
      <translation>{name} — {n} 个框</translation>
    </message>
    <message>
      <source>{name} — {n} boxes</source>
      <translation>{name} — {n} 个框</translation>
    </message>
    <message>
      <source>{name}: a folder without an OpenVINO model (.xml).</source>
      <translation>{name}：该文件夹中没有 OpenVINO 模型（.xml）。</translation>
    </message>
    <message>
      <source>{name}: not a model file this app can run (.onnx, .torchscript, .engine, an OpenVINO .xml or .pt).</source>
      <translation>{name}：不是本应用能运行的模型文件（.onnx、.torchscript、.engine、OpenVINO .xml 或 .pt）。</translation>
    </message>
    <message>
      <source>{name}: {folder} — {sent} of {files} files sent (the others were already there, same hash), {deleted} deleted. Train from {data_yaml} there.</source>
      <translation>{name}：{folder} — 发送了 {files} 个文件中的 {sent} 个（其余文件已在那里，哈希相同），删除了 {deleted} 个。在那里用 {data_yaml} 训练。</translation>
    </message>
    <message>
      <source>{name}: {progress}</source>
      <translation>{name}：{progress}</translation>
    </message>
    <message>
      <source>{name}: {rate:.0f} img/s (workers {w})</source>
      <translation>{name}：{rate:.0f} 张/秒（{w} 个加载进程）</translation>
    </message>
    <message>
      <source>{name}: {review} to review, {reviewed} reviewed, {added} added, {rejected} rejected, {unreadable} unreadable, {pending} not predicted yet</source>
      <translation>{name}：待审核 {review}，已审核 {reviewed}，已加入 {added}，已拒绝 {rejected}，无法读取 {unreadable}，尚未预测 {pending}</translation>
    </message>
    <message>
      <source>{need:.1f} GB needed by training and its workers, {available:.1f} GB available</source>
      <translation>训练及其加载进程需要 {need:.1f} GB，可用 {available:.1f} GB</translation>
    </message>
    <message>
      <source>{need:.1f} GB: training process {main:.1f} GB + {train} train and {val} val workers × ~{per:.2f} GB</source>
      <translation>{need:.1f} GB：训练进程 {main:.1f} GB + {train} 个训练和 {val} 个验证加载进程 × 约 {per:.2f} GB</translation>
    </message>
    <message>
      <source>{now:.1f} GB/s of {full:.1f} GB/s</source>
      <translation>{now:.1f} GB/s（最高 {full:.1f} GB/s）</translation>
    </message>
    <message>
      <source>{now:.1f} ms instead of {full:.1f} ms</source>
      <translation>{now:.1f} 毫秒，而不是 {full:.1f} 毫秒</translation>
    </message>
    <message>
      <source>{now} / {slowdown} slowdown</source>
      <translation>{now} / 降频温度 {slowdown}</translation>
    </message>
    <message>
      <source>{nproc} processes per machine but Device names {count} GPU(s): each process needs a GPU of its own.</source>
      <translation>每台机器 {nproc} 个进程，但设备只列出了 {count} 块 GPU：每个进程都需要自己的一块 GPU。</translation>
    </message>
    <message>
      <source>{n} GPUs with DDP through torchrun (one process per GPU, never DataParallel).</source>
      <translation>{n} 块 GPU 通过 torchrun 使用 DDP 多卡训练（每块 GPU 一个进程，绝不用 DataParallel）。</translation>
    </message>
    <message>
      <source>{n} VOC objects marked difficult left out (--difficult keeps them)</source>
      <translation>略去了 {n} 个标为 difficult 的 VOC 目标（--difficult 可保留）</translation>
    </message>
    <message>
      <source>{n} annotations whose stated image size is not the image's (the image's is used)</source>
      <translation>{n} 个标注写的图片尺寸与实际不符（使用实际尺寸）</translation>
    </message>
    <message>
      <source>{n} box</source>
      <translation>{n} 个框</translation>
    </message>
    <message>
      <source>{n} boxes</source>
      <translation>{n} 个框</translation>
    </message>
    <message>
      <source>{n} boxes cut to the image's edge</source>
      <translation>{n} 个框被裁到图片边缘</translation>
    </message>
    <message>
      <source>{n} crowd region left out (“Keep COCO crowd regions” keeps it)</source>
      <translation>{n} 个人群区域被略去（勾选“保留 COCO 人群区域”可保留）</translation>
    </message>
    <message>
      <source>{n} crowd regions left out (“Keep COCO crowd regions” keeps them)</source>
      <translation>{n} 个人群区域被略去（勾选“保留 COCO 人群区域”可保留）</translation>
    </message>
    <message>
      <source>{n} error in the dataset would stop training.</source>
      <translation>数据集中有 {n} 个会让训练停止的错误。</translation>
    </message>
    <message>
      <source>{n} errors in the dataset would stop training.</source>
      <translation>数据集中有 {n} 个会让训练停止的错误。</translation>
    </message>
    <message>
      <source>{n} files arrived on {name} different from what was sent (first: {file}); send again.</source>
      <translation>{name} 收到的 {n} 个文件与发送的不同（第一个：{file}）；请重新发送。</translation>
    </message>
    <message>
      <source>{n} files changed while they were fetched (first: {file}); fetch again.</source>
      <translation>有 {n} 个文件在取回期间发生了变化（第一个：{file}）；请重新取回。</translation>
    </message>
    <message>
      <source>{n} image</source>
      <translation>{n} 张图片</translation>
    </message>
    <message>
      <source>{n} image resized now</source>
      <translation>本次缩放 {n} 张图片</translation>
    </message>
    <message>
      <source>{n} image resized now, {resumed} kept</source>
      <translation>本次缩放 {n} 张图片，保留 {resumed} 张</translation>
    </message>
    <message>
      <source>{n} image validated</source>
      <translation>已验证 {n} 张图片</translation>
    </message>
    <message>
      <source>{n} images</source>
      <translation>{n} 张图片</translation>
    </message>
    <message>
      <source>{n} images or frames; results in {out}</source>
      <translation>{n} 张图片或帧；结果在 {out}</translation>
    </message>
    <message>
      <source>{n} images resized now</source>
      <translation>本次缩放 {n} 张图片</translation>
    </message>
    <message>
      <source>{n} images resized now, {resumed} kept</source>
      <translation>本次缩放 {n} 张图片，保留 {resumed} 张</translation>
    </message>
    <message>
      <source>{n} images validated</source>
      <translation>已验证 {n} 张图片</translation>
    </message>
    <message>
      <source>{n} images without objects (kept as backgrounds)</source>
      <translation>{n} 张图片没有目标（作为背景图保留）</translation>
    </message>
    <message>
      <source>{n} images written to {path}</source>
      <translation>已将 {n} 张图片写入 {path}</translation>
    </message>
    <message>
      <source>{n} images' boxes turned with their EXIF orientation</source>
      <translation>{n} 张图片的框随 EXIF 方向一起旋转</translation>
    </message>
    <message>
      <source>{n} label edited</source>
      <translation>{n} 个标注已修改</translation>
    </message>
    <message>
      <source>{n} labels edited</source>
      <translation>{n} 个标注已修改</translation>
    </message>
    <message>
      <source>{n} more would make yolov5 skip an image.</source>
      <translation>另有 {n} 个会让 yolov5 跳过一张图片。</translation>
    </message>
    <message>
      <source>{n} more would make yolov5 skip images.</source>
      <translation>另有 {n} 个会让 yolov5 跳过图片。</translation>
    </message>
    <message>
      <source>{n} object marked difficult left out (“Keep VOC objects marked difficult” keeps it)</source>
      <translation>{n} 个标为 difficult 的目标被略去（勾选“保留标为 difficult 的 VOC 目标”可保留）</translation>
    </message>
    <message>
      <source>{n} objects marked difficult left out (“Keep VOC objects marked difficult” keeps them)</source>
      <translation>{n} 个标为 difficult 的目标被略去（勾选“保留标为 difficult 的 VOC 目标”可保留）</translation>
    </message>
    <message>
      <source>{n} of {total} have a one-click fix on the Dataset page (Fix…, previewed and undoable); the others say what to do.</source>
      <translation>{total} 条中有 {n} 条可在“数据集”页一键修复（修复…，先预览，可撤销）；其余各条说明了该怎么做。</translation>
    </message>
    <message>
      <source>{n} segmentation mask (a label map of a VOC segmentation export, not a photo): left out</source>
      <translation>{n} 张分割掩码（VOC 分割导出的标签图，不是照片）：已略去</translation>
    </message>
    <message>
      <source>{n} segmentation masks (label maps of a VOC segmentation export, not photos): left out</source>
      <translation>{n} 张分割掩码（VOC 分割导出的标签图，不是照片）：已略去</translation>
    </message>
    <message>
      <source>{n} uncorrectable ECC error since the driver loaded: it ended the CUDA program that hit it. If it recurs after a reset, the board needs service.</source>
      <translation>自驱动加载以来有 {n} 个不可纠正的 ECC 错误：它终止了遇到它的 CUDA 程序。如果重置后再次出现，这块显卡需要检修。</translation>
    </message>
    <message>
      <source>{n} uncorrectable ECC errors since the driver loaded: each one ends the CUDA program that hit it. If they recur after a reset, the board needs service.</source>
      <translation>自驱动加载以来有 {n} 个不可纠正的 ECC 错误：每一个都会终止遇到它的 CUDA 程序。如果重置后再次出现，这块显卡需要检修。</translation>
    </message>
    <message>
      <source>{n} val images probably have a label mistake</source>
      <translation>{n} 张验证图片可能有标注错误</translation>
    </message>
    <message>
      <source>{n} values; a box row is 'class x_center y_center width height' (5 values). yolov5 drops the image as corrupt ('{reason}').</source>
      <translation>{n} 个数值；框的一行是 'class x_center y_center width height'（5 个数值）。yolov5 会把图片当作损坏丢弃（'{reason}'）。</translation>
    </message>
    <message>
      <source>{options}: not sent to another machine (a file or a grant of this machine).</source>
      <translation>{options}：不会发送到另一台机器（这是本机的文件或授权）。</translation>
    </message>
    <message>
      <source>{option} {value} is not between 0 and 1.</source>
      <translation>{option} {value} 不在 0 到 1 之间。</translation>
    </message>
    <message>
      <source>{option}: {kept} (given: {given})</source>
      <translation>{option}：{kept}（给出的是：{given}）</translation>
    </message>
    <message>
      <source>{out} cannot be read: {reason}</source>
      <translation>无法读取 {out}：{reason}</translation>
    </message>
    <message>
      <source>{out} is a file, not a folder. Choose an empty folder for the copy.</source>
      <translation>{out} 是文件而不是文件夹。请为副本选择一个空文件夹。</translation>
    </message>
    <message>
      <source>{out} is inside the source {source}: the import never writes into the source. Pick a folder outside it.</source>
      <translation>{out} 位于源文件夹 {source} 之内：导入从不写入源文件夹。请选择它之外的文件夹。</translation>
    </message>
    <message>
      <source>{out} is not empty and is not a prepared copy of this dataset: the copy would replace its data.yaml and split lists. Choose an empty folder, or let the copy go to the app's cache (no --out).</source>
      <translation>{out} 不是空文件夹，也不是此数据集的预处理副本：副本会替换其中的 data.yaml 和划分列表。请选择一个空文件夹，或让副本放到应用的缓存中（不加 --out）。</translation>
    </message>
    <message>
      <source>{out} {where}: the copy would overwrite your images and data.yaml. Choose an empty folder outside the dataset, or let the copy go to the app's cache (no --out).</source>
      <translation>{out} {where}：副本会覆盖你的图片和 data.yaml。请选择数据集之外的空文件夹，或让副本放到应用的缓存中（不加 --out）。</translation>
    </message>
    <message>
      <source>{parent} is a file, not a folder, so {path} cannot be made under it.</source>
      <translation>{parent} 是文件而不是文件夹，无法在其下创建 {path}。</translation>
    </message>
    <message>
      <source>{path} already exists and is not empty.</source>
      <translation>{path} 已存在且不是空的。</translation>
    </message>
    <message>
      <source>{path} cannot be prepared: {reasons}</source>
      <translation>无法准备 {path}：{reasons}</translation>
    </message>
    <message>
      <source>{path} cannot be read as a data.yaml: {reason}</source>
      <translation>{path} 无法作为 data.yaml 读取：{reason}</translation>
    </message>
    <message>
      <source>{path} cannot be read as a dataset: {reason}</source>
      <translation>{path} 无法作为数据集读取：{reason}</translation>
    </message>
    <message>
      <source>{path} cannot be read for training: {reasons}</source>
      <translation>无法读取 {path} 用于训练：{reasons}</translation>
    </message>
    <message>
      <source>{path} cannot be read: {reason}</source>
      <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
      <source>{path} changed after the editor read it; it was left as it is.</source>
      <translation>编辑器读取 {path} 之后它已被改动；已保持原样。</translation>
    </message>
    <message>
      <source>{path} changed after this edit; it was left as it is.</source>
      <translation>{path} 在此次编辑后被改动过；已保持原样。</translation>
    </message>
    <message>
      <source>{path} could not be read ({reason}).</source>
      <translation>无法读取 {path}（{reason}）。</translation>
    </message>
    <message>
      <source>{path} could not be read: it looks truncated or corrupt ({reason}).</source>
      <translation>无法读取 {path}：它看起来被截断或已损坏（{reason}）。</translation>
    </message>
    <message>
      <source>{path} does not exist.</source>
      <translation>{path} 不存在。</translation>
    </message>
    <message>
      <source>{path} exists already; left alone</source>
      <translation>{path} 已存在；保持不动</translation>
    </message>
    <message>
      <source>{path} has no 'train' entry</source>
      <translation>{path} 没有 'train' 条目</translation>
    </message>
    <message>
      <source>{path} has no '{split}' split.</source>
      <translation>{path} 没有“{split}”划分。</translation>
    </message>
    <message>
      <source>{path} has no evolve table (meta = {{…}}): this yolov5 version is not one the app knows.</source>
      <translation>{path} 中没有 evolve 表（meta = {{…}}）：本应用不认识这个 yolov5 版本。</translation>
    </message>
    <message>
      <source>{path} has no readable record of the settings its search started with.</source>
      <translation>{path} 中没有可读取的该搜索开始时的设置记录。</translation>
    </message>
    <message>
      <source>{path} holds a {kind} model from {maker}, not a yolov5 7 detection model.</source>
      <translation>{path} 包含的是 {maker} 的 {kind} 模型，而不是 yolov5 7 检测模型。</translation>
    </message>
    <message>
      <source>{path} holds no hyperparameters (yolov5 needs a mapping such as 'lr0: 0.01').</source>
      <translation>{path} 中没有超参数（yolov5 需要形如 'lr0: 0.01' 的映射）。</translation>
    </message>
    <message>
      <source>{path} holds no image yolov5 can read (.jpg, .png, .bmp, .tif, .webp …).</source>
      <translation>{path} 中没有 yolov5 能读取的图片（.jpg、.png、.bmp、.tif、.webp …）。</translation>
    </message>
    <message>
      <source>{path} holds no options (expected a mapping of option names).</source>
      <translation>{path} 中没有选项（应为选项名称的映射）。</translation>
    </message>
    <message>
      <source>{path} holds no search space (expected a mapping such as 'lr0: [0.001, 0.02]').</source>
      <translation>{path} 中没有搜索空间（应为类似 'lr0: [0.001, 0.02]' 的映射）。</translation>
    </message>
    <message>
      <source>{path} holds no search to resume.</source>
      <translation>{path} 中没有可继续的搜索。</translation>
    </message>
    <message>
      <source>{path} holds polygon rows; the box editor does not rewrite it.</source>
      <translation>{path} 含多边形行；框编辑器不会改写它。</translation>
    </message>
    <message>
      <source>{path} is a PyTorch file but not a yolov5 checkpoint (no model inside).</source>
      <translation>{path} 是 PyTorch 文件，但不是 yolov5 检查点（里面没有模型）。</translation>
    </message>
    <message>
      <source>{path} is a link (to {target}); label edits change only the dataset's own files. Replace the link with the file itself to edit it here.</source>
      <translation>{path} 是一个链接（指向 {target}）；标签编辑只修改数据集自己的文件。请用文件本身替换该链接后再在这里编辑。</translation>
    </message>
    <message>
      <source>{path} is a link now; it was left as it is.</source>
      <translation>{path} 现在是一个链接；已保持原样。</translation>
    </message>
    <message>
      <source>{path} is a pickle: loading it can run code it carries. Trust it and add it to the weights store? [y/N] </source>
      <translation>{path} 是 pickle 文件：加载它可能执行其中的代码。信任它并加入权重库吗？[y/N] </translation>
    </message>
    <message>
      <source>{path} is a pickle: loading it can run code it carries; it is imported only when you trust it.</source>
      <translation>{path} 是 pickle 文件：加载它可能运行其中携带的代码；只有在您信任它时才会导入。</translation>
    </message>
    <message>
      <source>{path} is empty.</source>
      <translation>{path} 是空的。</translation>
    </message>
    <message>
      <source>{path} is in the dataset already; left alone</source>
      <translation>{path} 已在数据集中；保持不动</translation>
    </message>
    <message>
      <source>{path} is in your runs, but YOLO Studio has no record of writing it: the run was copied in from elsewhere, or made before this version recorded its checkpoints. A .pt file is a pickle and can run code when loaded; if you trust it, add --trust-weights (asked once: the file is recorded then).</source>
      <translation>{path} 位于您的训练记录中，但 YOLO Studio 没有写入它的记录：该训练是从别处复制进来的，或是在本版本开始记录检查点之前创建的。.pt 文件是 pickle，加载时可以运行代码；如果您信任它，请加上 --trust-weights（只问一次：之后会记录该文件）。</translation>
    </message>
    <message>
      <source>{path} is in your runs, but it is not the file YOLO Studio recorded writing there (copied from another workspace, or changed since). A .pt file is a pickle and can run code when loaded; if you trust it, add --trust-weights.</source>
      <translation>{path} 位于您的训练记录中，但它不是 YOLO Studio 记录下写入的那个文件（从另一个工作区复制而来，或之后被修改过）。.pt 文件是 pickle，加载时可以运行代码；如果您信任它，请加上 --trust-weights。</translation>
    </message>
    <message>
      <source>{path} is larger than a hyperparameter file ({limit} KB at most).</source>
      <translation>{path} 比超参数文件大得多（最多 {limit} KB）。</translation>
    </message>
    <message>
      <source>{path} is neither an image nor a video this app reads.</source>
      <translation>{path} 既不是本应用能读取的图片，也不是视频。</translation>
    </message>
    <message>
      <source>{path} is not a JSON facts file: {reason}</source>
      <translation>{path} 不是 JSON 格式的检测信息文件：{reason}</translation>
    </message>
    <message>
      <source>{path} is not a PyTorch checkpoint (or it is truncated).</source>
      <translation>{path} 不是 PyTorch 检查点（或已被截断）。</translation>
    </message>
    <message>
      <source>{path} is not a YAML file: {reason}</source>
      <translation>{path} 不是 YAML 文件：{reason}</translation>
    </message>
    <message>
      <source>{path} is not a detection model (its head is {head}).</source>
      <translation>{path} 不是检测模型（它的检测头是 {head}）。</translation>
    </message>
    <message>
      <source>{path} is not a folder of images.</source>
      <translation>{path} 不是图片文件夹。</translation>
    </message>
    <message>
      <source>{path} is not a model file this app can run (.pt, .onnx, .torchscript or .engine).</source>
      <translation>{path} 不是本应用能运行的模型文件（.pt、.onnx、.torchscript 或 .engine）。</translation>
    </message>
    <message>
      <source>{path} is not a regular file (a FIFO, a device or a folder is in its place)</source>
      <translation>{path} 不是普通文件（它的位置上是 FIFO、设备或文件夹）</translation>
    </message>
    <message>
      <source>{path} is not a regular file.</source>
      <translation>{path} 不是普通文件。</translation>
    </message>
    <message>
      <source>{path} is not a review queue this app can read ({reason}).</source>
      <translation>{path} 不是本应用能读取的审核队列（{reason}）。</translation>
    </message>
    <message>
      <source>{path} is not a weights manifest.</source>
      <translation>{path} 不是权重清单文件。</translation>
    </message>
    <message>
      <source>{path} is not empty: predict writes into a new folder.</source>
      <translation>{path} 不是空的：predict 只写入新文件夹。</translation>
    </message>
    <message>
      <source>{path} is not readable</source>
      <translation>{path} 无法读取</translation>
    </message>
    <message>
      <source>{path} is not the file that was stored: its SHA-256 differs from the one recorded when it was downloaded or imported (changed on disk?). Remove it (yolostudio weights remove {name}), then get or import it again.</source>
      <translation>{path} 不是当初保存的文件：它的 SHA-256 与下载或导入时记录的不同（磁盘上被改动过？）。请删除它（yolostudio weights remove {name}），然后重新获取或导入。</translation>
    </message>
    <message>
      <source>{path} is not the search state YOLO Studio recorded writing (copied from elsewhere, changed since, or left by a search that was killed before it was recorded). Ray would unpickle it, which can run code; it was not loaded. Start a new search instead.</source>
      <translation>{path} 不是 YOLO Studio 记录写入的搜索状态（从别处复制而来、之后被修改，或搜索在记录前被强制结束）。Ray 会对它反序列化（unpickle），这可能执行代码；它未被加载。请改为开始新的搜索。</translation>
    </message>
    <message>
      <source>{path} is outside your runs. A .pt file is a pickle and can run code when loaded; if you trust it, add --trust-weights.</source>
      <translation>{path} 不在你的训练目录中。.pt 文件是 pickle，加载时可能执行代码；如果你信任它，请加上 --trust-weights。</translation>
    </message>
    <message>
      <source>{path} was made by a different yolov5/ultralytics version: it needs the Python module '{module}', which this app does not have.</source>
      <translation>{path} 是由另一个版本的 yolov5/ultralytics 生成的：它需要 Python 模块 '{module}'，而本应用没有。</translation>
    </message>
    <message>
      <source>{path} was made by a different yolov5/ultralytics version: {reason}.</source>
      <translation>{path} 是由另一个版本的 yolov5/ultralytics 生成的：{reason}。</translation>
    </message>
    <message>
      <source>{path} was recorded with an earlier secret key of this workspace: {key} was made anew on {when} (the earlier one was deleted), so every checkpoint recorded before then — this one too — counts as foreign until you trust it again. A .pt file is a pickle and can run code when loaded; if this is your own run, add --trust-weights (asked once: it is recorded with the new key then).</source>
      <translation>{path} 是用本工作区较早的密钥记录的：{key} 已于 {when} 重新生成（之前的密钥被删除了），因此在此之前记录的所有检查点（包括这个）都视为外来文件，直到你再次信任它们。.pt 文件是 pickle，加载时可以运行代码；如果这是你自己的训练，请加上 --trust-weights（只问一次：之后会用新密钥记录它）。</translation>
    </message>
    <message>
      <source>{path}: missing {keys}; yolov5 reads every key of its {reference}.</source>
      <translation>{path}：缺少 {keys}；yolov5 会读取其 {reference} 中的每个键。</translation>
    </message>
    <message>
      <source>{path}: no VOC .xml, LabelMe .json, COCO .json or YOLO labels found. Name the format with --format, or pick the folder the export was unpacked into.</source>
      <translation>{path}：没有找到 VOC .xml、LabelMe .json、COCO .json 或 YOLO 标签。请用 --format 指定格式，或选择导出内容解压后的文件夹。</translation>
    </message>
    <message>
      <source>{path}: no checkpoint to resume from ({problem}).</source>
      <translation>{path}：没有可用于继续训练的检查点（{problem}）。</translation>
    </message>
    <message>
      <source>{path}: no class {cls} box at {box} (the file changed since the evaluation?).</source>
      <translation>{path}：在 {box} 处没有类别 {cls} 的框（评估之后文件被改动了？）。</translation>
    </message>
    <message>
      <source>{path}: no such file</source>
      <translation>{path}：文件不存在</translation>
    </message>
    <message>
      <source>{path}: not a video this app can read</source>
      <translation>{path}：不是本应用能读取的视频</translation>
    </message>
    <message>
      <source>{path}: not an image this app can read</source>
      <translation>{path}：不是本应用能读取的图片</translation>
    </message>
    <message>
      <source>{path}: pick a folder, or a COCO .json file.</source>
      <translation>{path}：请选择一个文件夹，或一个 COCO .json 文件。</translation>
    </message>
    <message>
      <source>{path}: the train split holds no images.</source>
      <translation>{path}：train 划分中没有图片。</translation>
    </message>
    <message>
      <source>{path}: the {fmt} format is read from a folder.</source>
      <translation>{path}：{fmt} 格式需要从文件夹读取。</translation>
    </message>
    <message>
      <source>{path}: the {split} split has no images to evaluate on.</source>
      <translation>{path}：{split} 划分没有可评估的图片。</translation>
    </message>
    <message>
      <source>{path}: unknown options {names}.</source>
      <translation>{path}：未知选项 {names}。</translation>
    </message>
    <message>
      <source>{path}: {key} = {value!r} is not a prepared copy (source, imgsz ≥ 32, format jpg or png).</source>
      <translation>{path}：{key} = {value!r} 不是有效的预处理副本（需要 source、imgsz ≥ 32、format 为 jpg 或 png）。</translation>
    </message>
    <message>
      <source>{path}: {name} = {value!r} is not a {kind}.</source>
      <translation>{path}：{name} = {value!r} 不是 {kind}。</translation>
    </message>
    <message>
      <source>{path}: {name} = {value!r} must be [low, high] (yolov5's bounds: [{low}, {high}]).</source>
      <translation>{path}：{name} = {value!r} 必须写成 [low, high]（yolov5 的范围：[{low}, {high}]）。</translation>
    </message>
    <message>
      <source>{path}: {name} = {value!r} must be a list of values to try.</source>
      <translation>{path}：{name} = {value!r} 必须是要尝试的取值列表。</translation>
    </message>
    <message>
      <source>{path}: {name} is not a setting that can be searched (known: {known}).</source>
      <translation>{path}：{name} 不是可以搜索的设置（可搜索：{known}）。</translation>
    </message>
    <message>
      <source>{path}: {name}: a log-scale bound must be above 0 (low is {low}).</source>
      <translation>{path}：{name}：对数刻度的范围必须大于 0（low 为 {low}）。</translation>
    </message>
    <message>
      <source>{path}: {name}: low {low} must be below high {high}.</source>
      <translation>{path}：{name}：low {low} 必须小于 high {high}。</translation>
    </message>
    <message>
      <source>{path}: {name}: {value!r} is not a valid value ({rule}).</source>
      <translation>{path}：{name}：{value!r} 不是有效值（{rule}）。</translation>
    </message>
    <message>
      <source>{path}: {reason}</source>
      <translation>{path}：{reason}</translation>
    </message>
    <message>
      <source>{path}: {reason} A model YAML is code to yolov5; if you trust this file, add --trust-model.</source>
      <translation>{path}：{reason} 模型 YAML 对 yolov5 而言就是代码；如果您信任此文件，请加上 --trust-model。</translation>
    </message>
    <message>
      <source>{pct} of the objects are under {px} px after resizing to {imgsz}</source>
      <translation>缩放到 {imgsz} 后，{pct} 的目标小于 {px} 像素</translation>
    </message>
    <message>
      <source>{per_epoch} × {n} = {total}</source>
      <translation>{per_epoch} × {n} = {total}</translation>
    </message>
    <message>
      <source>{per_epoch} × {n} ≈ {total}</source>
      <translation>{per_epoch} × {n} ≈ {total}</translation>
    </message>
    <message>
      <source>{per} images per GPU</source>
      <translation>每块 GPU {per} 张图片</translation>
    </message>
    <message>
      <source>{per} per GPU on {n} GPUs (the total is divisible by the GPU count; AutoBatch is off under DDP).</source>
      <translation>{n} 块 GPU，每块 {per}（总数能被 GPU 数量整除；DDP 下不使用 AutoBatch）。</translation>
    </message>
    <message>
      <source>{phase} {done}/{total} images</source>
      <translation>{phase} {done}/{total} 张图片</translation>
    </message>
    <message>
      <source>{prefix} still holds files the installer did not make; they were left.</source>
      <translation>{prefix} 中还有不是安装程序创建的文件；已保留。</translation>
    </message>
    <message>
      <source>{prefix}yolostudio train DATA.yaml --device {value}</source>
      <translation>{prefix}yolostudio train DATA.yaml --device {value}</translation>
    </message>
    <message>
      <source>{prefix}yolostudio train DATA.yaml --device {value}   # PCI order, as nvidia-smi numbers them</source>
      <translation>{prefix}yolostudio train DATA.yaml --device {value}   # PCI 顺序，与 nvidia-smi 的编号一致</translation>
    </message>
    <message>
      <source>{ram:.1f} GB RAM free holds {n} workers</source>
      <translation>可用内存 {ram:.1f} GB 能容纳 {n} 个加载进程</translation>
    </message>
    <message>
      <source>{ram} GB RAM available</source>
      <translation>可用内存 {ram} GB</translation>
    </message>
    <message>
      <source>{rate:.0f} img/s at batch {b}, imgsz {imgsz} on {device}</source>
      <translation>批大小 {b}、图片尺寸 {imgsz}、{device} 上 {rate:.0f} 张/秒</translation>
    </message>
    <message>
      <source>{reason} (tried {tries} times).</source>
      <translation>{reason}（已尝试 {tries} 次）。</translation>
    </message>
    <message>
      <source>{reason} The incomplete copy was removed ({freed} given back). Free that space, or choose another folder for the copy (--out), then prepare again.</source>
      <translation>{reason} 未完成的副本已删除（释放了 {freed}）。请腾出这些空间，或为副本另选文件夹（--out），然后重新预处理。</translation>
    </message>
    <message>
      <source>{reason} Trying again in {seconds:g} s (try {attempt} of {tries}).</source>
      <translation>{reason} {seconds:g} 秒后重试（第 {attempt} 次，共 {tries} 次）。</translation>
    </message>
    <message>
      <source>{reload}   # close the programs that use CUDA first; if the module stays busy, reboot</source>
      <translation>{reload}   # 先关闭使用 CUDA 的程序；如果模块仍被占用，请重启</translation>
    </message>
    <message>
      <source>{reset}   # let several processes share it; or stop process {pids} first</source>
      <translation>{reset}   # 让多个进程共享它；或先停止进程 {pids}</translation>
    </message>
    <message>
      <source>{role}: {figures}</source>
      <translation>{role}：{figures}</translation>
    </message>
    <message>
      <source>{run} from {name}: {n} files in {folder} (verified: {verified}).</source>
      <translation>来自 {name} 的 {run}：{n} 个文件，位于 {folder}（已校验：{verified}）。</translation>
    </message>
    <message>
      <source>{run} from {name}: {n} files in {folder}.</source>
      <translation>来自 {name} 的 {run}：{n} 个文件，位于 {folder}。</translation>
    </message>
    <message>
      <source>{shortcut} The full log is {log}.
Fix the cause above, then run: {retry}
(It continues where it stopped: what is already installed is kept.)</source>
      <translation>{shortcut} 完整日志见 {log}。
修复上述原因后运行：{retry}
（它会从中断处继续：已安装的内容会保留。）</translation>
    </message>
    <message>
      <source>{shown} of {n} image</source>
      <translation>{n} 张图片中的 {shown} 张</translation>
    </message>
    <message>
      <source>{shown} of {n} images</source>
      <translation>{n} 张图片中的 {shown} 张</translation>
    </message>
    <message>
      <source>{size} downloaded — get it again to resume</source>
      <translation>已下载 {size} — 再次获取即可续传</translation>
    </message>
    <message>
      <source>{source} holds no image or video.</source>
      <translation>{source} 中没有图片或视频。</translation>
    </message>
    <message>
      <source>{source} names the meeting point {name} = {value}; a run connects to one only when you give it yourself (PyTorch's rendezvous unpickles what that address serves: a hostile one runs code here).</source>
      <translation>{source} 指定了汇合点 {name} = {value}；只有你亲自给出时，训练才会连接汇合点（PyTorch 的汇合机制会反序列化（unpickle）该地址提供的内容：恶意的地址能在本机运行代码）。</translation>
    </message>
    <message>
      <source>{source}: no image could be converted ({n} problems, e.g. {example}). Nothing was written. Check that the images are in the folder with the annotations (--dry-run lists every problem).</source>
      <translation>{source}：没有任何图片可以转换（{n} 个问题，例如 {example}）。没有写入任何内容。请检查图片是否和标注在同一文件夹中（--dry-run 会列出每个问题）。</translation>
    </message>
    <message>
      <source>{speed:.0f} MB/s</source>
      <translation>{speed:.0f} MB/s</translation>
    </message>
    <message>
      <source>{split} holds no images yolov5 can read. {consequence}</source>
      <translation>{split} 中没有 yolov5 能读取的图片。{consequence}</translation>
    </message>
    <message>
      <source>{split}: searching {path} went past {limit} folders, far more than a dataset has (is it the whole disk?). Point '{split}' at the folder of its images.</source>
      <translation>{split}：搜索 {path} 已超过 {limit} 个文件夹，远多于一个数据集应有的数量（是否指向了整个磁盘？）。请将 '{split}' 指向其图片所在的文件夹。</translation>
    </message>
    <message>
      <source>{split}: {entry} does not exist (looked for {path}). {consequence}</source>
      <translation>{split}：{entry} 不存在（查找位置 {path}）。{consequence}</translation>
    </message>
    <message>
      <source>{split}: {path} does not exist.</source>
      <translation>{split}：{path} 不存在。</translation>
    </message>
    <message>
      <source>{split}: {path} is a system folder, not a dataset's: yolov5 would search every folder under it for images. Point '{split}' at the folder of its images.</source>
      <translation>{split}：{path} 是系统文件夹，不是数据集的文件夹：yolov5 会在它下面的每个文件夹里搜索图片。请把 '{split}' 指向存放其图片的文件夹。</translation>
    </message>
    <message>
      <source>{step}: {why}</source>
      <translation>{step}：{why}</translation>
    </message>
    <message>
      <source>{s} s</source>
      <translation>{s} 秒</translation>
    </message>
    <message>
      <source>{tag} has no kernels for GPU {index} ({what}).</source>
      <translation>{tag} 没有 GPU {index}（{what}）的内核。</translation>
    </message>
    <message>
      <source>{tag} has no kernels for {archs}</source>
      <translation>{tag} 没有 {archs} 的内核</translation>
    </message>
    <message>
      <source>{tag} needs driver {floor} or newer</source>
      <translation>{tag} 需要驱动 {floor} 或更新版本</translation>
    </message>
    <message>
      <source>{tag}, as asked (--cuda {tag}).</source>
      <translation>{tag}，按要求（--cuda {tag}）。</translation>
    </message>
    <message>
      <source>{tag}: the newest wheel (CUDA {cuda}) that driver {driver} (CUDA {have}) runs and that is compiled for {gpus}.{why_not}</source>
      <translation>{tag}：驱动 {driver}（CUDA {have}）能运行、且为 {gpus} 编译的最新安装包（CUDA {cuda}）。{why_not}</translation>
    </message>
    <message>
      <source>{tag}: the newest wheel driver {driver} (CUDA {have}) runs, through CUDA {major}.x minor-version compatibility, and compiled for {gpus}.</source>
      <translation>{tag}：驱动 {driver}（CUDA {have}）通过 CUDA {major}.x 次版本兼容能运行的最新安装包，且为 {gpus} 编译。</translation>
    </message>
    <message>
      <source>{tag}: {why}</source>
      <translation>{tag}：{why}</translation>
    </message>
    <message>
      <source>{temp:.0f} °C</source>
      <translation>{temp:.0f} °C</translation>
    </message>
    <message>
      <source>{text} is not a duration like 2h, 90m or 1h30m</source>
      <translation>{text} 不是 2h、90m 或 1h30m 这样的时长</translation>
    </message>
    <message>
      <source>{title}: does not apply — {why}</source>
      <translation>{title}：不适用 — {why}</translation>
    </message>
    <message>
      <source>{title}: not checked — {why}</source>
      <translation>{title}：未检查 — {why}</translation>
    </message>
    <message>
      <source>{title}: {measured}</source>
      <translation>{title}：{measured}</translation>
    </message>
    <message>
      <source>{train} train + {val} val</source>
      <translation>训练 {train} + 验证 {val}</translation>
    </message>
    <message>
      <source>{update}
then: {install}</source>
      <translation>{update}
然后：{install}</translation>
    </message>
    <message>
      <source>{url} is not an official YOLOv5 release URL; YOLO Studio downloads only from {base}.</source>
      <translation>{url} 不是官方 YOLOv5 发布地址；YOLO Studio 只从 {base} 下载。</translation>
    </message>
    <message>
      <source>{url} was not found on the server (HTTP 404).</source>
      <translation>服务器上找不到 {url}（HTTP 404）。</translation>
    </message>
    <message>
      <source>{usable} of {logical} cores usable; the loader starts {train} workers</source>
      <translation>{logical} 个核心中可用 {usable} 个；数据加载器启动 {train} 个进程</translation>
    </message>
    <message>
      <source>{used}/{total} of its compute</source>
      <translation>其算力的 {used}/{total}</translation>
    </message>
    <message>
      <source>{util:.0f}% busy</source>
      <translation>占用 {util:.0f}%</translation>
    </message>
    <message>
      <source>{value} is a file of this machine; {name} cannot read it.</source>
      <translation>{value} 是本机的文件；{name} 无法读取它。</translation>
    </message>
    <message>
      <source>{variable} is not set</source>
      <translation>未设置 {variable}</translation>
    </message>
    <message>
      <source>{variable}={value} hides every GPU from PyTorch</source>
      <translation>{variable}={value} 使 PyTorch 看不到任何 GPU</translation>
    </message>
    <message>
      <source>{variable}={value} names '{entry}', which hides the GPUs after it from PyTorch</source>
      <translation>{variable}={value} 中的 '{entry}' 使其后的 GPU 对 PyTorch 不可见</translation>
    </message>
    <message>
      <source>{venv} exists but is not a Python environment; move it away or install elsewhere with --prefix DIR.</source>
      <translation>{venv} 已存在但不是 Python 环境；请把它移走，或用 --prefix DIR 安装到别处。</translation>
    </message>
    <message>
      <source>{verb} of {target} started on {name}; it goes on without this terminal.</source>
      <translation>{target} 的 {verb} 已在 {name} 上启动；关闭此终端后它会继续运行。</translation>
    </message>
    <message>
      <source>{waiting} All cores are busy ({cpu:.0f}%), and on a CPU run the data loader and the model's computation share them: more workers would only take cores from the model. Cache decoded images, use a smaller image size, or train on a GPU.</source>
      <translation>{waiting} 所有核心都很忙（{cpu:.0f}%），而在 CPU 训练时数据加载和模型计算共用这些核心：增加加载进程只会从模型那里抢核心。请缓存解码后的图片、减小图片尺寸，或改用 GPU 训练。</translation>
    </message>
    <message>
      <source>{waiting} All cores are busy ({cpu:.0f}%): more workers would not help. Cache decoded images, use lighter augmentation, or a smaller image size.</source>
      <translation>{waiting} 所有核心都很忙（{cpu:.0f}%）：增加加载进程没有帮助。请缓存解码后的图片、减轻数据增强，或减小图片尺寸。</translation>
    </message>
    <message>
      <source>{waiting} The CPU is only {cpu} busy, so a few more data-loader workers can prepare images while the model computes (they share the cores with it).</source>
      <translation>{waiting} CPU 只有 {cpu} 在忙，所以再加几个数据加载进程就能在模型计算的同时准备图片（它们与模型共用核心）。</translation>
    </message>
    <message>
      <source>{waiting} The CPU is only {cpu} busy, so more data-loader workers can feed the GPU.</source>
      <translation>{waiting} CPU 只有 {cpu} 在忙，所以增加数据加载进程就能喂饱 GPU。</translation>
    </message>
    <message>
      <source>{waiting} The CPU spent {iowait:.0f}% of its time waiting for reads: the disk is the limit. Cache the images, or copy the dataset to a local SSD.</source>
      <translation>{waiting} CPU 有 {iowait:.0f}% 的时间在等待读盘：瓶颈是磁盘。请缓存图片，或把数据集复制到本地 SSD。</translation>
    </message>
    <message>
      <source>{waiting} The rest of each step is the model's forward and backward pass on the CPU; on a GPU it runs one to two orders of magnitude faster.</source>
      <translation>{waiting} 每一步剩下的时间是模型在 CPU 上的前向和反向计算；在 GPU 上会快一到两个数量级。</translation>
    </message>
    <message>
      <source>{weights} is not from a run of this workspace: say which dataset with --data DATA.yaml.</source>
      <translation>{weights} 不属于此工作区的训练：请用 --data DATA.yaml 指定数据集。</translation>
    </message>
    <message>
      <source>{what} (exit code {code}). Its last lines:</source>
      <translation>{what}（退出码 {code}）。最后几行输出：</translation>
    </message>
    <message>
      <source>{where} ({name}): a corner is not a number</source>
      <translation>{where}（{name}）：有一个角的坐标不是数字</translation>
    </message>
    <message>
      <source>{where} ({name}): a corner is {value}, not a position: the box is left out</source>
      <translation>{where}（{name}）：有一个角的坐标为 {value}，不是位置：该框已略去</translation>
    </message>
    <message>
      <source>{where} ({name}): a crowd region (iscrowd), left out</source>
      <translation>{where}（{name}）：人群区域（iscrowd），已略去</translation>
    </message>
    <message>
      <source>{where} ({name}): neither a box nor a segmentation with an area</source>
      <translation>{where}（{name}）：既没有框，也没有带面积的分割</translation>
    </message>
    <message>
      <source>{where} ({name}): the box has no size ({w:.1f}×{h:.1f} px)</source>
      <translation>{where}（{name}）：框没有大小（{w:.1f}×{h:.1f} 像素）</translation>
    </message>
    <message>
      <source>{where} ({name}): the box lies outside the image</source>
      <translation>{where}（{name}）：框在图片之外</translation>
    </message>
    <message>
      <source>{where} ({name}): {shape} has no box to convert</source>
      <translation>{where}（{name}）：{shape} 没有可转换的框</translation>
    </message>
    <message>
      <source>{where} ({name}): {why}</source>
      <translation>{where}（{name}）：{why}</translation>
    </message>
    <message>
      <source>{where} has a different data.yaml (its content differs from node 0's).</source>
      <translation>{where} 的 data.yaml 不同（内容与节点 0 的不一致）。</translation>
    </message>
    <message>
      <source>{where} has yolov5 {yolov5} / torch {torch}; node 0 has yolov5 {ref_yolov5} / torch {ref_torch}.</source>
      <translation>{where} 的版本是 yolov5 {yolov5} / torch {torch}；节点 0 是 yolov5 {ref_yolov5} / torch {ref_torch}。</translation>
    </message>
    <message>
      <source>{where} sees {counts}; node 0 sees {ref_counts}.</source>
      <translation>{where} 看到的是 {counts}；节点 0 看到的是 {ref_counts}。</translation>
    </message>
    <message>
      <source>{where}: bbox</source>
      <translation>{where}：bbox</translation>
    </message>
    <message>
      <source>{where}: category {id} is not among the file's categories</source>
      <translation>{where}：类别 {id} 不在该文件的类别列表中</translation>
    </message>
    <message>
      <source>{where}: expected an object, found {found}</source>
      <translation>{where}：应为对象，实际是 {found}</translation>
    </message>
    <message>
      <source>{where}: segmentation</source>
      <translation>{where}：segmentation</translation>
    </message>
    <message>
      <source>{why}
{steps}</source>
      <translation>{why}
{steps}</translation>
    </message>
    <message>
      <source>{why}
{update}</source>
      <translation>{why}
{update}</translation>
    </message>
    <message>
      <source>{why} The installed build runs with driver {wanted} or newer.</source>
      <translation>{why} 已安装的构建在驱动 {wanted} 或更新版本上可以运行。</translation>
    </message>
    <message>
      <source>{why} Until then the CPU build is installed and training will not use the GPU; after the update, run the installer again: it switches PyTorch in place.</source>
      <translation>{why} 在此之前安装 CPU 构建，训练不会使用 GPU；更新驱动后请再次运行安装程序：它会就地切换 PyTorch。</translation>
    </message>
    <message>
      <source>{why}: the driver version cannot be read{started}</source>
      <translation>{why}：无法读取驱动版本{started}</translation>
    </message>
    <message>
      <source>… and {n} more (--json lists them all)</source>
      <translation>… 还有 {n} 条（--json 列出全部）</translation>
    </message>
    <message>
      <source>… and {n} more (--json lists them all).</source>
      <translation>…… 还有 {n} 项（--json 会全部列出）。</translation>
    </message>
    <message>
      <source>… and {n} more.</source>
      <translation>… 还有 {n} 条。</translation>
    </message>
    <message>
      <source>… fold {fold} of {folds}: epoch {epoch} of {epochs}</source>
      <translation>… 第 {fold}/{folds} 折：第 {epoch}/{epochs} 轮</translation>
    </message>
    <message>
      <source>… {detail}</source>
      <translation>… {detail}</translation>
    </message>
    <message>
      <source>… {n} image validated</source>
      <translation>… 已验证 {n} 张图片</translation>
    </message>
    <message>
      <source>… {n} images validated</source>
      <translation>… 已验证 {n} 张图片</translation>
    </message>
    <message>
      <source>−{n} image</source>
      <translation>−{n} 张图片</translation>
    </message>
    <message>
      <source>−{n} images</source>
      <translation>−{n} 张图片</translation>
    </message>
    <message>
      <source>≈{mb:.0f} MB</source>
      <translation>≈{mb:.0f} MB</translation>
    </message>
    <message>
      <source>✓ {name} imported: {path}</source>
      <translation>✓ 已导入 {name}：{path}</translation>
    </message>
    <message>
      <source>✓ {name} stored: {path}</source>
      <translation>✓ 已保存 {name}：{path}</translation>
    </message>
  </context>
</TS>
