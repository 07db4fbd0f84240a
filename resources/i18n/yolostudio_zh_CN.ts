<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
  <context>
    <name>AboutDialog</name>
    <message>
      <source>About YOLO Studio</source>
      <translation>关于 YOLO Studio</translation>
    </message>
    <message>
      <source>DejaVu Sans font: the DejaVu fonts license ({file})</source>
      <translation>DejaVu Sans 字体：DejaVu 字体许可证（{file}）</translation>
    </message>
    <message>
      <source>Licenses</source>
      <translation>许可证</translation>
    </message>
    <message>
      <source>Log</source>
      <translation>日志</translation>
    </message>
    <message>
      <source>NVIDIA driver</source>
      <translation>NVIDIA 驱动</translation>
    </message>
    <message>
      <source>Noto Sans CJK SC font (a subset): SIL Open Font License 1.1 ({file})</source>
      <translation>Noto Sans CJK SC 字体（子集）：SIL 开放字体许可证 1.1（{file}）</translation>
    </message>
    <message>
      <source>Settings</source>
      <translation>设置</translation>
    </message>
    <message>
      <source>Train and export YOLOv5 models on your own GPU workstation.</source>
      <translation>在你自己的 GPU 工作站上训练并导出 YOLOv5 模型。</translation>
    </message>
    <message>
      <source>Versions</source>
      <translation>版本</translation>
    </message>
    <message>
      <source>Where things are</source>
      <translation>文件位置</translation>
    </message>
    <message>
      <source>Workspace</source>
      <translation>工作区</translation>
    </message>
    <message>
      <source>YOLO Studio</source>
      <translation>YOLO Studio</translation>
    </message>
    <message>
      <source>YOLO Studio: GNU AGPL-3.0 or later (it embeds yolov5, which is AGPL-3.0)</source>
      <translation>YOLO Studio：GNU AGPL-3.0 或更新版本（它内嵌了 AGPL-3.0 的 yolov5）</translation>
    </message>
    <message>
      <source>none (a CPU build of PyTorch)</source>
      <translation>无（CPU 版 PyTorch）</translation>
    </message>
    <message>
      <source>none found</source>
      <translation>未找到</translation>
    </message>
    <message>
      <source>not checked yet</source>
      <translation>尚未检查</translation>
    </message>
    <message>
      <source>not checked yet: open the Environment page</source>
      <translation>尚未检查：请打开环境页面</translation>
    </message>
    <message>
      <source>reading the last environment check…</source>
      <translation>正在读取上次的环境检查…</translation>
    </message>
  </context>
  <context>
    <name>AppLog</name>
    <message>
      <source>Copy details</source>
      <translation>复制详细信息</translation>
    </message>
    <message>
      <source>Something went wrong</source>
      <translation>出错了</translation>
    </message>
    <message>
      <source>YOLO Studio hit an unexpected problem: {reason}

It is recorded in {log}. Training runs are not affected (they run in their own process). You can keep working; if something looks wrong, restart the app, and please send the details with a bug report.</source>
      <translation>YOLO Studio 遇到了意外问题：{reason}

它已记录在 {log}。训练不受影响（它们在自己的进程中运行）。你可以继续工作；如果有什么不对劲，请重启应用，并在缺陷报告中附上详细信息。</translation>
    </message>
    <message>
      <source>the terminal (the log folder is not writable)</source>
      <translation>终端（日志文件夹不可写）</translation>
    </message>
  </context>
  <context>
    <name>Background</name>
    <message>
      <source>A background task</source>
      <translation>一个后台任务</translation>
    </message>
    <message>
      <source>{what} failed: {reason}</source>
      <translation>{what}失败：{reason}</translation>
    </message>
  </context>
  <context>
    <name>Banner</name>
    <message>
      <source>Dismiss</source>
      <translation>关闭</translation>
    </message>
  </context>
  <context>
    <name>BoxEditor</name>
    <message>
      <source>Drag to draw, drag a box to move it, its edge to resize · 1–9 class · Delete · Tab next box · Space / R confirm / reject proposals · D / A next / previous image · Ctrl+Z / Ctrl+Y · +/−/0 zoom · Enter accept and write</source>
      <translation>拖动画框，拖动框可移动，拖动边缘可调整大小 · 1–9 类别 · Delete 删除 · Tab 下一个框 · Space / R 确认 / 拒绝建议框 · D / A 下一张 / 上一张图片 · Ctrl+Z / Ctrl+Y · +/−/0 缩放 · Enter 接受并写入</translation>
    </message>
    <message>
      <source>Listing the images of {folder}</source>
      <translation>正在列出 {folder} 中的图片</translation>
    </message>
    <message>
      <source>Reading the class names of {path}</source>
      <translation>正在读取 {path} 的类别名称</translation>
    </message>
    <message>
      <source>Reading the labels of {path}</source>
      <translation>正在读取 {path} 的标注</translation>
    </message>
    <message>
      <source>Reading the review queue</source>
      <translation>正在读取审核队列</translation>
    </message>
    <message>
      <source>Writing {path}</source>
      <translation>正在写入 {path}</translation>
    </message>
  </context>
  <context>
    <name>BoxEditorDialog</name>
    <message>
      <source>Edit the boxes — {name}</source>
      <translation>编辑框 — {name}</translation>
    </message>
  </context>
  <context>
    <name>CheckDetails</name>
    <message>
      <source>&lt;p&gt;Select a check to see what was measured and how to fix it.&lt;/p&gt;</source>
      <translation>&lt;p&gt;选择一项检查，查看测量结果和修复方法。&lt;/p&gt;</translation>
    </message>
    <message>
      <source>Apply setting</source>
      <translation>应用设置</translation>
    </message>
    <message>
      <source>Copy fix</source>
      <translation>复制修复方法</translation>
    </message>
    <message>
      <source>Copy the fix (a command or setting) to the clipboard</source>
      <translation>把修复方法（命令或设置）复制到剪贴板</translation>
    </message>
    <message>
      <source>Does not apply here: {why}.</source>
      <translation>此处不适用：{why}。</translation>
    </message>
    <message>
      <source>Fix</source>
      <translation>修复</translation>
    </message>
    <message>
      <source>Fix (command)</source>
      <translation>修复（命令）</translation>
    </message>
    <message>
      <source>Fix (setting)</source>
      <translation>修复（设置）</translation>
    </message>
    <message>
      <source>Measured</source>
      <translation>测量值</translation>
    </message>
    <message>
      <source>Not checked: {why}.</source>
      <translation>未检查：{why}。</translation>
    </message>
    <message>
      <source>Passed. Measured: {measured}.</source>
      <translation>通过。测得：{measured}。</translation>
    </message>
    <message>
      <source>Passed: nothing to fix.</source>
      <translation>通过：无需修复。</translation>
    </message>
  </context>
  <context>
    <name>DatasetChecking</name>
    <message>
      <source>Check cancelled. Files checked so far are remembered.</source>
      <translation>检查已取消。已检查的文件会被记住。</translation>
    </message>
    <message>
      <source>Checking images and labels…</source>
      <translation>正在检查图片和标签…</translation>
    </message>
    <message>
      <source>Errors found ({e}): yolov5 would drop images or stop. See the Problems list.</source>
      <translation>发现错误（{e}）：yolov5 会丢弃图片或停止。请查看问题列表。</translation>
    </message>
    <message>
      <source>Errors: {e} · warnings: {w} · notes: {i} — {files} files checked in {s} s ({cached} unchanged since the last check)</source>
      <translation>错误：{e} · 警告：{w} · 提示：{i} — 在 {s} 秒内检查了 {files} 个文件（{cached} 个自上次检查后未变）</translation>
    </message>
    <message>
      <source>No errors; warnings worth a look ({w}) in the Problems list.</source>
      <translation>没有错误；问题列表中有值得一看的警告（{w}）。</translation>
    </message>
    <message>
      <source>No problems found: the dataset is ready to train.</source>
      <translation>未发现问题：数据集可以用于训练了。</translation>
    </message>
    <message>
      <source>The check failed: {reason}</source>
      <translation>检查失败：{reason}</translation>
    </message>
  </context>
  <context>
    <name>DatasetDialogs</name>
    <message>
      <source>Apply this fix?</source>
      <translation>应用这个修复吗？</translation>
    </message>
    <message>
      <source>Before:
{before}

After:
{after}</source>
      <translation>修改前：
{before}

修改后：
{after}</translation>
    </message>
    <message>
      <source>Change class ids?</source>
      <translation>修改类别 id 吗？</translation>
    </message>
    <message>
      <source>Class names</source>
      <translation>类别名称</translation>
    </message>
    <message>
      <source>Folder of images and labels</source>
      <translation>图片和标签所在的文件夹</translation>
    </message>
    <message>
      <source>Open a data.yaml</source>
      <translation>打开 data.yaml</translation>
    </message>
    <message>
      <source>Percent of images for validation (the rest train):</source>
      <translation>用于验证的图片百分比（其余用于训练）：</translation>
    </message>
    <message>
      <source>Remove the '{key}' key from data.yaml? Without it the dataset simply has no {key} split; an empty '{key}:' value would not say that.</source>
      <translation>从 data.yaml 中删除 '{key}' 键吗？没有它，数据集就只是没有 {key} 划分；而空的 '{key}:' 值表达不了这个意思。</translation>
    </message>
    <message>
      <source>Remove {key}?</source>
      <translation>删除 {key} 吗？</translation>
    </message>
    <message>
      <source>Unsaved changes</source>
      <translation>未保存的更改</translation>
    </message>
    <message>
      <source>Validation share</source>
      <translation>验证集比例</translation>
    </message>
    <message>
      <source>YAML files (*.yaml *.yml)</source>
      <translation>YAML 文件 (*.yaml *.yml)</translation>
    </message>
    <message>
      <source>{name} has changes that are not saved. Save them before leaving?</source>
      <translation>{name} 有未保存的更改。离开前保存吗？</translation>
    </message>
    <message>
      <source>{note}

One class name a line; the first line is id 0:</source>
      <translation>{note}

每行一个类别名称；第一行是 id 0：</translation>
    </message>
    <message>
      <source>{what}

Label files store class ids, not names, so this changes the meaning of existing labels (they are not rewritten). Continue?</source>
      <translation>{what}

标签文件存储的是类别 id 而不是名称，所以这会改变现有标签的含义（它们不会被重写）。继续吗？</translation>
    </message>
  </context>
  <context>
    <name>DatasetForm</name>
    <message>
      <source>(not set)</source>
      <translation>（未设置）</translation>
    </message>
    <message>
      <source>A list of {n} entries: edit it in the YAML view.</source>
      <translation>一个包含 {n} 项的列表：请在 YAML 视图中编辑。</translation>
    </message>
    <message>
      <source>Add</source>
      <translation>添加</translation>
    </message>
    <message>
      <source>Choose a folder</source>
      <translation>选择文件夹</translation>
    </message>
    <message>
      <source>Choose a folder for {field}</source>
      <translation>为 {field} 选择文件夹</translation>
    </message>
    <message>
      <source>Classes</source>
      <translation>类别</translation>
    </message>
    <message>
      <source>Delete</source>
      <translation>删除</translation>
    </message>
    <message>
      <source>Delete class {id} '{name}'?</source>
      <translation>删除类别 {id} '{name}' 吗？</translation>
    </message>
    <message>
      <source>Delete class {id} '{name}'? Every class after it moves down one id.</source>
      <translation>删除类别 {id} '{name}' 吗？它之后的每个类别的 id 都会减一。</translation>
    </message>
    <message>
      <source>Fix the YAML errors (see the YAML view) to edit here.</source>
      <translation>请先修复 YAML 错误（见 YAML 视图）才能在这里编辑。</translation>
    </message>
    <message>
      <source>Folders and lists</source>
      <translation>文件夹和列表</translation>
    </message>
    <message>
      <source>Id</source>
      <translation>Id</translation>
    </message>
    <message>
      <source>Move down</source>
      <translation>下移</translation>
    </message>
    <message>
      <source>Move up</source>
      <translation>上移</translation>
    </message>
    <message>
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>Root (path):</source>
      <translation>根目录（path）：</translation>
    </message>
    <message>
      <source>Swap classes {a} '{x}' and {b} '{y}'?</source>
      <translation>交换类别 {a} '{x}' 和 {b} '{y}' 吗？</translation>
    </message>
    <message>
      <source>Test (optional):</source>
      <translation>测试（test，可选）：</translation>
    </message>
    <message>
      <source>Train:</source>
      <translation>训练（train）：</translation>
    </message>
    <message>
      <source>Val:</source>
      <translation>验证（val）：</translation>
    </message>
    <message>
      <source>a folder of images or a .txt list, relative to the root</source>
      <translation>图片文件夹或 .txt 列表，相对于根目录</translation>
    </message>
    <message>
      <source>class{n}</source>
      <translation>class{n}</translation>
    </message>
    <message>
      <source>folder</source>
      <translation>文件夹</translation>
    </message>
    <message>
      <source>list file</source>
      <translation>列表文件</translation>
    </message>
    <message>
      <source>missing</source>
      <translation>缺失</translation>
    </message>
    <message>
      <source>the folder of this data.yaml</source>
      <translation>这个 data.yaml 所在的文件夹</translation>
    </message>
    <message>
      <source>{n} classes. Ids are the row numbers; label files store these ids.</source>
      <translation>{n} 个类别。Id 就是行号；标签文件存储的是这些 id。</translation>
    </message>
    <message>
      <source>→ {path}</source>
      <translation>→ {path}</translation>
    </message>
    <message>
      <source>→ {path} ({state})</source>
      <translation>→ {path}（{state}）</translation>
    </message>
  </context>
  <context>
    <name>DatasetGallery</name>
    <message>
      <source>Drawing thumbnails</source>
      <translation>正在绘制缩略图</translation>
    </message>
    <message>
      <source>Drawing {name}</source>
      <translation>正在绘制 {name}</translation>
    </message>
    <message>
      <source>Drawing {name}…</source>
      <translation>正在绘制 {name}…</translation>
    </message>
    <message>
      <source>Edit the boxes…</source>
      <translation>编辑框…</translation>
    </message>
    <message>
      <source>Images appear here after a check.</source>
      <translation>检查后图片会显示在这里。</translation>
    </message>
    <message>
      <source>Next</source>
      <translation>下一页</translation>
    </message>
    <message>
      <source>No images with problems.</source>
      <translation>没有有问题的图片。</translation>
    </message>
    <message>
      <source>Only images with problems</source>
      <translation>只看有问题的图片</translation>
    </message>
    <message>
      <source>Page {page} of {pages} · {n} images</source>
      <translation>第 {page}/{pages} 页 · {n} 张图片</translation>
    </message>
    <message>
      <source>Previous</source>
      <translation>上一页</translation>
    </message>
    <message>
      <source>⚠ {name}</source>
      <translation>⚠ {name}</translation>
    </message>
  </context>
  <context>
    <name>DatasetImportDialog</name>
    <message>
      <source>, </source>
      <translation>、</translation>
    </message>
    <message>
      <source>; </source>
      <translation>；</translation>
    </message>
    <message>
      <source>A COCO annotation file</source>
      <translation>COCO 标注文件</translation>
    </message>
    <message>
      <source>A folder, or a COCO .json file</source>
      <translation>一个文件夹，或一个 COCO .json 文件</translation>
    </message>
    <message>
      <source>A new, empty folder</source>
      <translation>一个新的空文件夹</translation>
    </message>
    <message>
      <source>Annotations that cannot be converted are listed here, with why.</source>
      <translation>无法转换的标注会列在这里，并说明原因。</translation>
    </message>
    <message>
      <source>Boxes</source>
      <translation>框数</translation>
    </message>
    <message>
      <source>COCO JSON (*.json)</source>
      <translation>COCO JSON (*.json)</translation>
    </message>
    <message>
      <source>COCO file…</source>
      <translation>COCO 文件…</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Cancelled; nothing was written.</source>
      <translation>已取消；没有写入任何内容。</translation>
    </message>
    <message>
      <source>Cannot be converted ({n}):</source>
      <translation>无法转换（{n}）：</translation>
    </message>
    <message>
      <source>Cannot start the import: {reason}</source>
      <translation>无法开始导入：{reason}</translation>
    </message>
    <message>
      <source>Checking the result</source>
      <translation>正在检查结果</translation>
    </message>
    <message>
      <source>Choose where to write the new dataset.</source>
      <translation>请选择新数据集的写入位置。</translation>
    </message>
    <message>
      <source>Choose…</source>
      <translation>选择…</translation>
    </message>
    <message>
      <source>Class in the export</source>
      <translation>导出中的类别</translation>
    </message>
    <message>
      <source>Close</source>
      <translation>关闭</translation>
    </message>
    <message>
      <source>Copy the images (else hard links where possible)</source>
      <translation>复制图片（否则尽量使用硬链接）</translation>
    </message>
    <message>
      <source>Detect</source>
      <translation>自动识别</translation>
    </message>
    <message>
      <source>Folder…</source>
      <translation>文件夹…</translation>
    </message>
    <message>
      <source>Give every class spelled several ways its commonest spelling</source>
      <translation>把有多种写法的类别统一为最常见的写法</translation>
    </message>
    <message>
      <source>Import</source>
      <translation>导入</translation>
    </message>
    <message>
      <source>Import a dataset</source>
      <translation>导入数据集</translation>
    </message>
    <message>
      <source>Importing…</source>
      <translation>正在导入…</translation>
    </message>
    <message>
      <source>Keep COCO crowd regions</source>
      <translation>保留 COCO 人群区域</translation>
    </message>
    <message>
      <source>Keep VOC objects marked difficult</source>
      <translation>保留标为 difficult 的 VOC 目标</translation>
    </message>
    <message>
      <source>Look</source>
      <translation>查看</translation>
    </message>
    <message>
      <source>Merge spellings</source>
      <translation>合并写法</translation>
    </message>
    <message>
      <source>Name in the dataset</source>
      <translation>数据集中的名称</translation>
    </message>
    <message>
      <source>No class is kept: only backgrounds would be written.</source>
      <translation>没有保留任何类别：只会写入背景图片。</translation>
    </message>
    <message>
      <source>Nothing written yet. Rename, merge or drop classes, choose the split, then Import.</source>
      <translation>尚未写入任何内容。可重命名、合并或略去类别，选择划分，然后点“导入”。</translation>
    </message>
    <message>
      <source>Pick the export, then Look.</source>
      <translation>选择导出内容，然后点“查看”。</translation>
    </message>
    <message>
      <source>Polygons</source>
      <translation>多边形</translation>
    </message>
    <message>
      <source>Read the export and show what it holds; nothing is written</source>
      <translation>读取导出内容并显示其中有什么；不写入任何东西</translation>
    </message>
    <message>
      <source>Reading images</source>
      <translation>正在读取图片</translation>
    </message>
    <message>
      <source>Reading the export…</source>
      <translation>正在读取导出内容…</translation>
    </message>
    <message>
      <source>Spelled several ways: {names}</source>
      <translation>有多种写法：{names}</translation>
    </message>
    <message>
      <source>Split (shares)</source>
      <translation>划分（比例）</translation>
    </message>
    <message>
      <source>The check found no errors.</source>
      <translation>检查没有发现错误。</translation>
    </message>
    <message>
      <source>The check found {n} errors: open it on the Dataset page to see them.</source>
      <translation>检查发现 {n} 个错误：在数据集页面打开它即可查看。</translation>
    </message>
    <message>
      <source>The export's folder</source>
      <translation>导出的文件夹</translation>
    </message>
    <message>
      <source>The import failed: {reason}</source>
      <translation>导入失败：{reason}</translation>
    </message>
    <message>
      <source>The train share must be above 0 %.</source>
      <translation>训练比例必须大于 0 %。</translation>
    </message>
    <message>
      <source>Train with this dataset</source>
      <translation>用这个数据集训练</translation>
    </message>
    <message>
      <source>Uncheck a class to leave it out; give two classes one name to merge them</source>
      <translation>取消勾选即可略去某个类别；给两个类别起同一个名字即可合并</translation>
    </message>
    <message>
      <source>Where to write the new dataset</source>
      <translation>新数据集的写入位置</translation>
    </message>
    <message>
      <source>Write to</source>
      <translation>写入到</translation>
    </message>
    <message>
      <source>Writing the dataset</source>
      <translation>正在写入数据集</translation>
    </message>
    <message>
      <source>Written as: {classes}</source>
      <translation>将写入的类别：{classes}</translation>
    </message>
    <message>
      <source>Wrote {path}: train {train}, val {val}, test {test} images, {boxes} boxes. {verdict}</source>
      <translation>已写入 {path}：训练 {train}、验证 {val}、测试 {test} 张图片，{boxes} 个框。{verdict}</translation>
    </message>
    <message>
      <source>kept as segments</source>
      <translation>保留为分割轮廓</translation>
    </message>
    <message>
      <source>seed</source>
      <translation>种子</translation>
    </message>
    <message>
      <source>test</source>
      <translation>测试</translation>
    </message>
    <message>
      <source>their bounding box</source>
      <translation>外接框</translation>
    </message>
    <message>
      <source>train</source>
      <translation>训练</translation>
    </message>
    <message>
      <source>val</source>
      <translation>验证</translation>
    </message>
    <message>
      <source>{fmt}: {images} images, {boxes} annotations, {bg} without objects (kept as backgrounds); {clipped} boxes cut to the image's edge, {rotated} images turned with their EXIF orientation.</source>
      <translation>{fmt}：{images} 张图片，{boxes} 个标注，{bg} 张没有目标（作为背景图保留）；{clipped} 个框被裁到图片边缘，{rotated} 张图片随 EXIF 方向旋转。</translation>
    </message>
    <message>
      <source>{items}.</source>
      <translation>{items}。</translation>
    </message>
  </context>
  <context>
    <name>DatasetOperations</name>
    <message>
      <source>Applying the fix</source>
      <translation>正在应用修复</translation>
    </message>
    <message>
      <source>Checking the dataset</source>
      <translation>正在检查数据集</translation>
    </message>
    <message>
      <source>Finding images and labels</source>
      <translation>正在查找图片和标注</translation>
    </message>
    <message>
      <source>Opening {path}</source>
      <translation>正在打开 {path}</translation>
    </message>
    <message>
      <source>Planning the fix</source>
      <translation>正在规划修复</translation>
    </message>
    <message>
      <source>Preparing a resized copy</source>
      <translation>正在准备缩放副本</translation>
    </message>
    <message>
      <source>Preparing the demo dataset</source>
      <translation>正在准备演示数据集</translation>
    </message>
    <message>
      <source>Reading {path}</source>
      <translation>正在读取 {path}</translation>
    </message>
    <message>
      <source>Saving {path}</source>
      <translation>正在保存 {path}</translation>
    </message>
    <message>
      <source>Undoing the fix</source>
      <translation>正在撤销修复</translation>
    </message>
    <message>
      <source>Writing the dataset</source>
      <translation>正在写入数据集</translation>
    </message>
  </context>
  <context>
    <name>DatasetPage</name>
    <message>
      <source> — unsaved changes</source>
      <translation> — 有未保存的更改</translation>
    </message>
    <message>
      <source>Cannot open {path}: {reason}</source>
      <translation>无法打开 {path}：{reason}</translation>
    </message>
    <message>
      <source>Check</source>
      <translation>检查</translation>
    </message>
    <message>
      <source>Check every image and label (F5)</source>
      <translation>检查每张图片和标签（F5）</translation>
    </message>
    <message>
      <source>Convert a Pascal VOC, LabelMe, COCO or YOLO export into a dataset (yolostudio dataset import)</source>
      <translation>把 Pascal VOC、LabelMe、COCO 或 YOLO 导出转换成数据集（yolostudio dataset import）</translation>
    </message>
    <message>
      <source>Dataset</source>
      <translation>数据集</translation>
    </message>
    <message>
      <source>Form</source>
      <translation>表单</translation>
    </message>
    <message>
      <source>Gallery</source>
      <translation>图库</translation>
    </message>
    <message>
      <source>Import VOC, LabelMe or COCO…</source>
      <translation>导入 VOC、LabelMe 或 COCO…</translation>
    </message>
    <message>
      <source>Import…</source>
      <translation>导入…</translation>
    </message>
    <message>
      <source>Make this data.yaml the Train page's dataset and go there</source>
      <translation>把这个 data.yaml 设为训练页面的数据集并转到那里</translation>
    </message>
    <message>
      <source>New from folders…</source>
      <translation>从文件夹新建…</translation>
    </message>
    <message>
      <source>No dataset yet — open a data.yaml, create one from folders, import another tool's labels, or use the demo.</source>
      <translation>还没有数据集——打开一个 data.yaml，从文件夹创建，导入其他工具的标注，或使用演示数据。</translation>
    </message>
    <message>
      <source>Not checked yet.</source>
      <translation>尚未检查。</translation>
    </message>
    <message>
      <source>Open a data.yaml (Ctrl+O)</source>
      <translation>打开 data.yaml（Ctrl+O）</translation>
    </message>
    <message>
      <source>Open a data.yaml…</source>
      <translation>打开 data.yaml…</translation>
    </message>
    <message>
      <source>Open or create a data.yaml, fix it safely, and catch every label problem before training.</source>
      <translation>打开或创建 data.yaml，安全地修复它，并在训练前发现每一个标签问题。</translation>
    </message>
    <message>
      <source>Open…</source>
      <translation>打开…</translation>
    </message>
    <message>
      <source>Prepare resized copy…</source>
      <translation>准备缩放副本…</translation>
    </message>
    <message>
      <source>Problems</source>
      <translation>问题</translation>
    </message>
    <message>
      <source>Save</source>
      <translation>保存</translation>
    </message>
    <message>
      <source>Save the data.yaml (Ctrl+S); the original is kept as .bak</source>
      <translation>保存 data.yaml（Ctrl+S）；原文件保留为 .bak</translation>
    </message>
    <message>
      <source>Split a folder of images and labels into train/val and write a data.yaml</source>
      <translation>把一个包含图片和标签的文件夹划分为 train/val，并写出 data.yaml</translation>
    </message>
    <message>
      <source>Statistics</source>
      <translation>统计</translation>
    </message>
    <message>
      <source>The Train page now uses {path}; your unsaved edits to {name} stay here (Open… shows it).</source>
      <translation>训练页面现在使用 {path}；你对 {name} 未保存的修改仍保留在这里（“打开…”可以看到它）。</translation>
    </message>
    <message>
      <source>Train with this dataset</source>
      <translation>用这个数据集训练</translation>
    </message>
    <message>
      <source>Use the demo</source>
      <translation>使用演示数据</translation>
    </message>
    <message>
      <source>Use the demo dataset</source>
      <translation>使用演示数据集</translation>
    </message>
    <message>
      <source>Write a copy with every image resized to the training size: large photos then load several times faster (yolostudio dataset prepare)</source>
      <translation>写一份副本，每张图片都缩放到训练尺寸：大照片的加载因此快上数倍（yolostudio dataset prepare）</translation>
    </message>
    <message>
      <source>YAML</source>
      <translation>YAML</translation>
    </message>
    <message>
      <source>{path}{mark}</source>
      <translation>{path}{mark}</translation>
    </message>
  </context>
  <context>
    <name>DatasetSources</name>
    <message>
      <source>Could not create the dataset: {reason}</source>
      <translation>无法创建数据集：{reason}</translation>
    </message>
    <message>
      <source>Could not prepare the demo dataset: {reason}</source>
      <translation>无法准备演示数据集：{reason}</translation>
    </message>
    <message>
      <source>Finding images and labels…</source>
      <translation>正在查找图片和标签…</translation>
    </message>
    <message>
      <source>Label rows with a class id beyond the {nc} classes: {n} (see the Problems list).</source>
      <translation>类别 id 超出 {nc} 个类别的标注行：{n} 行（见“问题”列表）。</translation>
    </message>
    <message>
      <source>Label rows with an id beyond that: {n} (first: id {id} at {file}:{line}); they show as errors after the check, with a fix. If they are a real class, add names up to their id.</source>
      <translation>使用超出此范围 id 的标注行：{n} 行（第一处：{file}:{line} 的 id {id}）；检查后它们会显示为错误，并提供修复。如果它们确实是一个类别，请把名称一直补到该 id。</translation>
    </message>
    <message>
      <source>No images found in {folder}.</source>
      <translation>在 {folder} 中没有找到图片。</translation>
    </message>
    <message>
      <source>No label row uses class id 0.</source>
      <translation>没有任何标注行使用类别 id 0。</translation>
    </message>
    <message>
      <source>Preparing the demo dataset…</source>
      <translation>正在准备演示数据集…</translation>
    </message>
    <message>
      <source>The folder's own split is kept ({splits}).</source>
      <translation>保留了文件夹原有的划分（{splits}）。</translation>
    </message>
    <message>
      <source>The labels use class ids 0 to {top}.</source>
      <translation>标注使用的类别 id 为 0 到 {top}。</translation>
    </message>
    <message>
      <source>Writing the dataset…</source>
      <translation>正在写入数据集…</translation>
    </message>
    <message>
      <source>Wrote {path}: {train} training and {val} validation images ({bg} without labels).</source>
      <translation>已写入 {path}：{train} 张训练图片、{val} 张验证图片（{bg} 张没有标注）。</translation>
    </message>
    <message>
      <source>{first} {second}</source>
      <translation>{first}{second}</translation>
    </message>
  </context>
  <context>
    <name>DatasetStats</name>
    <message>
      <source>&lt;b&gt;{split}&lt;/b&gt;: {images} images, {objects} objects, {bg} without objects</source>
      <translation>&lt;b&gt;{split}&lt;/b&gt;：{images} 张图片，{objects} 个目标，{bg} 张没有目标</translation>
    </message>
    <message>
      <source>Box area (fraction of the image)</source>
      <translation>框面积（占图片的比例）</translation>
    </message>
    <message>
      <source>Box area (fraction of the image): median {median:.3g}, 10–90 % {p10:.3g}–{p90:.3g}</source>
      <translation>框面积（占图片的比例）：中位数 {median:.3g}，10–90 % 为 {p10:.3g}–{p90:.3g}</translation>
    </message>
    <message>
      <source>Box aspect (width / height)</source>
      <translation>框宽高比（宽 / 高）</translation>
    </message>
    <message>
      <source>Box aspect (width / height): median {median:.3g}, 10–90 % {p10:.3g}–{p90:.3g}</source>
      <translation>框宽高比（宽 / 高）：中位数 {median:.3g}，10–90 % 为 {p10:.3g}–{p90:.3g}</translation>
    </message>
    <message>
      <source>Classes with no objects in train: {names}</source>
      <translation>train 中没有目标的类别：{names}</translation>
    </message>
    <message>
      <source>Image size (longer side, px)</source>
      <translation>图片尺寸（长边，像素）</translation>
    </message>
    <message>
      <source>Image sizes (px): {sizes}</source>
      <translation>图片尺寸（像素）：{sizes}</translation>
    </message>
    <message>
      <source>Statistics appear after a check.</source>
      <translation>检查后会显示统计信息。</translation>
    </message>
    <message>
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <source>objects</source>
      <translation>目标数</translation>
    </message>
  </context>
  <context>
    <name>DatasetStep</name>
    <message>
      <source>&amp;Browse…</source>
      <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
      <source>Choose the data.yaml to train on.</source>
      <translation>选择用于训练的 data.yaml。</translation>
    </message>
    <message>
      <source>Dataset</source>
      <translation>数据集</translation>
    </message>
    <message>
      <source>path/to/data.yaml</source>
      <translation>path/to/data.yaml</translation>
    </message>
    <message>
      <source>{n} errors: fix them on the Dataset page before training (first: {first})</source>
      <translation>{n} 个错误：训练前请在数据集页面修复（第一个：{first}）</translation>
    </message>
    <message>
      <source>{train} training and {val} validation images · {nc} classes · most images {side} px on the long side · the smallest tenth of the boxes cover {area} of their image</source>
      <translation>训练图片 {train} 张、验证图片 {val} 张 · {nc} 个类别 · 多数图片长边 {side} 像素 · 最小的一成标注框占其图片的 {area}</translation>
    </message>
  </context>
  <context>
    <name>DetectionView</name>
    <message>
      <source>Press “Pick images…” or “Validation images” above: the model's boxes are drawn here.</source>
      <translation>点击上方的“选择图片…”或“验证集图片”：模型的检测框会画在这里。</translation>
    </message>
  </context>
  <context>
    <name>DiagnosisBanner</name>
    <message>
      <source>%</source>
      <translation>%</translation>
    </message>
    <message>
      <source>% of a core</source>
      <translation>%（以单个核计）</translation>
    </message>
    <message>
      <source>&lt;b&gt;{word} — {title}&lt;/b&gt;</source>
      <translation>&lt;b&gt;{word} — {title}&lt;/b&gt;</translation>
    </message>
    <message>
      <source>&lt;b&gt;{word}:&lt;/b&gt; {title} — {detail}</source>
      <translation>&lt;b&gt;{word}：&lt;/b&gt;{title} — {detail}</translation>
    </message>
    <message>
      <source>Apply to next run…</source>
      <translation>应用到下次训练…</translation>
    </message>
    <message>
      <source>Apply to the next run?</source>
      <translation>应用到下次训练吗？</translation>
    </message>
    <message>
      <source>Bottleneck monitor</source>
      <translation>瓶颈监测</translation>
    </message>
    <message>
      <source>CPU</source>
      <translation>CPU</translation>
    </message>
    <message>
      <source>Dismiss</source>
      <translation>关闭</translation>
    </message>
    <message>
      <source>Dismiss until the verdict changes</source>
      <translation>在结论改变之前不再显示</translation>
    </message>
    <message>
      <source>GPU busy</source>
      <translation>GPU 繁忙</translation>
    </message>
    <message>
      <source>GPU memory used</source>
      <translation>已用显存</translation>
    </message>
    <message>
      <source>GPUs seen by NVML</source>
      <translation>NVML 看到的 GPU</translation>
    </message>
    <message>
      <source>I/O wait</source>
      <translation>I/O 等待</translation>
    </message>
    <message>
      <source>MB/s</source>
      <translation>MB/s</translation>
    </message>
    <message>
      <source>Measured: {figures}</source>
      <translation>测量值：{figures}</translation>
    </message>
    <message>
      <source>Shows the suggested option changes and, once you confirm, sets them in the form for the next run</source>
      <translation>显示建议的选项修改，确认后把它们填入下次训练的表单</translation>
    </message>
    <message>
      <source>These options will be changed in the form for the next run (the current run is not touched):

{changes}</source>
      <translation>这些选项将在表单中为下次训练修改（当前训练不受影响）：

{changes}</translation>
    </message>
    <message>
      <source>batch</source>
      <translation>批大小</translation>
    </message>
    <message>
      <source>cores</source>
      <translation>核心数</translation>
    </message>
    <message>
      <source>data wait</source>
      <translation>等待数据</translation>
    </message>
    <message>
      <source>disk read</source>
      <translation>磁盘读取</translation>
    </message>
    <message>
      <source>images/s</source>
      <translation>张/秒</translation>
    </message>
    <message>
      <source>max temperature</source>
      <translation>最高温度</translation>
    </message>
    <message>
      <source>no</source>
      <translation>否</translation>
    </message>
    <message>
      <source>other programs' CPU</source>
      <translation>其他程序的 CPU</translation>
    </message>
    <message>
      <source>reasons</source>
      <translation>原因</translation>
    </message>
    <message>
      <source>this training's CPU</source>
      <translation>本次训练的 CPU</translation>
    </message>
    <message>
      <source>throttled</source>
      <translation>降频</translation>
    </message>
    <message>
      <source>throughput</source>
      <translation>吞吐量</translation>
    </message>
    <message>
      <source>training on GPU</source>
      <translation>在 GPU 上训练</translation>
    </message>
    <message>
      <source>waiting for a free core</source>
      <translation>等待空闲 CPU 核</translation>
    </message>
    <message>
      <source>workers</source>
      <translation>数据加载进程</translation>
    </message>
    <message>
      <source>yes</source>
      <translation>是</translation>
    </message>
    <message>
      <source>{label} {value}</source>
      <translation>{label} {value}</translation>
    </message>
    <message>
      <source>{value} {unit}</source>
      <translation>{value} {unit}</translation>
    </message>
    <message>
      <source>°C</source>
      <translation>°C</translation>
    </message>
    <message>
      <source>• {field}: {old} → {new} — {reason}</source>
      <translation>• {field}：{old} → {new} — {reason}</translation>
    </message>
  </context>
  <context>
    <name>Dialogs</name>
    <message>
      <source>A run is training</source>
      <translation>有训练正在进行</translation>
    </message>
    <message>
      <source>Connect to {endpoint}?</source>
      <translation>连接到 {endpoint}？</translation>
    </message>
    <message>
      <source>Download {name} ({size}) from the official YOLOv5 release?

{url}

This is the only time YOLO Studio uses the network, and only when you ask. Proxy settings come from the environment (https_proxy). The file is checked before it is used.</source>
      <translation>从官方 YOLOv5 发布页面下载 {name}（{size}）吗？

{url}

这是 YOLO Studio 唯一会使用网络的地方，而且只在你要求时。代理设置取自环境变量（https_proxy）。文件在使用前会经过检查。</translation>
    </message>
    <message>
      <source>Download {name}?</source>
      <translation>下载 {name} 吗？</translation>
    </message>
    <message>
      <source>Keep training in the background</source>
      <translation>在后台继续训练</translation>
    </message>
    <message>
      <source>Kill the training process?</source>
      <translation>强制结束训练进程吗？</translation>
    </message>
    <message>
      <source>Killing loses the work since the last checkpoint; a graceful stop saves it. Kill the training process now?</source>
      <translation>强制结束会丢失上次检查点之后的工作；平稳停止会保存它们。现在强制结束训练进程吗？</translation>
    </message>
    <message>
      <source>Run {name} is still training. Stop it, or keep it training in the background? YOLO Studio re-attaches to it the next time it starts.</source>
      <translation>训练 {name} 仍在进行。要停止它，还是让它在后台继续训练？YOLO Studio 下次启动时会重新连接到它。</translation>
    </message>
    <message>
      <source>Stop the run</source>
      <translation>停止训练</translation>
    </message>
    <message>
      <source>The run has not stopped yet</source>
      <translation>训练还没有停止</translation>
    </message>
    <message>
      <source>The training process has not stopped after {seconds} s. Kill it now (work since the last checkpoint is lost), or keep waiting?</source>
      <translation>训练进程在 {seconds} 秒后仍未停止。现在强制结束它（上次检查点之后的工作会丢失），还是继续等待？</translation>
    </message>
    <message>
      <source>Use this model definition?</source>
      <translation>使用此模型定义？</translation>
    </message>
    <message>
      <source>Use this weights file?</source>
      <translation>使用这个权重文件吗？</translation>
    </message>
    <message>
      <source>{name} has text that yolov5 would run as Python code when it builds the model:

{reason}

Only use it if you trust where it came from.

{path}</source>
      <translation>{name} 含有 yolov5 构建模型时会当作 Python 代码运行的文本：

{reason}

仅在您信任其来源时才使用它。

{path}</translation>
    </message>
    <message>
      <source>{name} is a PyTorch checkpoint (.pt). Such a file is a Python pickle: loading it can run any code it contains.

Only use it if you trust where it came from.

{path}</source>
      <translation>{name} 是 PyTorch 检查点（.pt）。这种文件是 Python pickle：加载它可能执行其中包含的任何代码。

只有在你信任它的来源时才使用。

{path}</translation>
    </message>
    <message>
      <source>{source} names {endpoint} as the meeting point of a run on several machines.

Starting the run connects this machine there, and PyTorch's rendezvous runs what that address serves: a hostile one can run code here. Keep it only if you know that machine and it is on a network you trust; otherwise the settings are used without it.</source>
      <translation>{source} 将 {endpoint} 指定为多机训练的汇合点。

开始训练时本机会连接到那里，而 PyTorch 的汇合机制会执行该地址提供的内容：恶意的地址能在本机运行代码。只有当你认识那台机器、且它在你信任的网络上时才保留它；否则将使用不含它的设置。</translation>
    </message>
  </context>
  <context>
    <name>DocumentEditing</name>
    <message>
      <source>Change the classes</source>
      <translation>修改类别</translation>
    </message>
    <message>
      <source>Could not save {path}: {reason}</source>
      <translation>无法保存 {path}：{reason}</translation>
    </message>
    <message>
      <source>Edit the YAML text</source>
      <translation>编辑 YAML 文本</translation>
    </message>
    <message>
      <source>Nothing to save: the file is as it is on disk.</source>
      <translation>无需保存：文件与磁盘上的一致。</translation>
    </message>
    <message>
      <source>Open or create a data.yaml first.</source>
      <translation>请先打开或创建一个 data.yaml。</translation>
    </message>
    <message>
      <source>Remove {key}</source>
      <translation>删除 {key}</translation>
    </message>
    <message>
      <source>Save is off: the YAML has an error at line {line} ({message}). Fix it in the YAML tab, or undo (Ctrl+Z).</source>
      <translation>无法保存：YAML 第 {line} 行有错误（{message}）。请在 YAML 标签页中改正，或撤销（Ctrl+Z）。</translation>
    </message>
    <message>
      <source>Saved. The original file is kept as {name}.</source>
      <translation>已保存。原文件保留为 {name}。</translation>
    </message>
    <message>
      <source>Saving…</source>
      <translation>正在保存…</translation>
    </message>
    <message>
      <source>Set {key}</source>
      <translation>设置 {key}</translation>
    </message>
    <message>
      <source>{message} Save is off until the text parses.</source>
      <translation>{message} 在文本能被解析之前无法保存。</translation>
    </message>
  </context>
  <context>
    <name>EnvironmentOperations</name>
    <message>
      <source>Keeping the check's facts</source>
      <translation>正在保存本次检查的事实</translation>
    </message>
    <message>
      <source>Looking for running trainings</source>
      <translation>正在查找进行中的训练</translation>
    </message>
    <message>
      <source>Planning the repair</source>
      <translation>正在规划修复</translation>
    </message>
    <message>
      <source>Reading the facts file</source>
      <translation>正在读取事实文件</translation>
    </message>
    <message>
      <source>Saving the environment report</source>
      <translation>正在保存环境报告</translation>
    </message>
  </context>
  <context>
    <name>EnvironmentPage</name>
    <message>
      <source>Asking the GPU driver (NVML)…</source>
      <translation>正在询问 GPU 驱动（NVML）…</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Cannot read {path}: {reason}</source>
      <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
      <source>Cannot write the probe's spec in {path}: {reason}</source>
      <translation>无法在 {path} 中写入探测任务的配置：{reason}</translation>
    </message>
    <message>
      <source>Check this machine again (F5)</source>
      <translation>再次检查这台机器（F5）</translation>
    </message>
    <message>
      <source>Checking this machine again… (the list below is from the previous check until it ends)</source>
      <translation>正在重新检查这台机器…（检查结束前，下面的列表来自上一次检查）</translation>
    </message>
    <message>
      <source>Checking this machine…</source>
      <translation>正在检查这台机器…</translation>
    </message>
    <message>
      <source>Checking…</source>
      <translation>正在检查…</translation>
    </message>
    <message>
      <source>Checks</source>
      <translation>检查项</translation>
    </message>
    <message>
      <source>Checks the GPU driver, CUDA, PyTorch, memory and disks, and says what to fix so training keeps the GPU busy.</source>
      <translation>检查 GPU 驱动、CUDA、PyTorch、内存和磁盘，并说明需要修复什么，让训练时 GPU 保持忙碌。</translation>
    </message>
    <message>
      <source>Copied: {fix}</source>
      <translation>已复制：{fix}</translation>
    </message>
    <message>
      <source>Could not save the report: {reason}</source>
      <translation>无法保存报告：{reason}</translation>
    </message>
    <message>
      <source>Environment</source>
      <translation>环境</translation>
    </message>
    <message>
      <source>Importing PyTorch (this takes a few seconds)…</source>
      <translation>正在导入 PyTorch（需要几秒钟）…</translation>
    </message>
    <message>
      <source>Install the PyTorch build that fits this driver and GPU into the app's own environment</source>
      <translation>把适合这个驱动和 GPU 的 PyTorch 版本安装到应用自己的环境中</translation>
    </message>
    <message>
      <source>JSON (*.json)</source>
      <translation>JSON (*.json)</translation>
    </message>
    <message>
      <source>JSON report (*.json)</source>
      <translation>JSON 报告 (*.json)</translation>
    </message>
    <message>
      <source>Judge another machine: a facts file is the JSON of what the check read there (GPUs, driver, CUDA, PyTorch, disks). Make one on that machine with 'yolostudio doctor --save-facts facts.json', or use a report saved with Save report…</source>
      <translation>评估另一台机器：检测信息文件是检查在那台机器上读取到的内容（GPU、驱动、CUDA、PyTorch、磁盘）的 JSON。在那台机器上用 'yolostudio doctor --save-facts facts.json' 生成，或使用用“保存报告…”保存的报告。</translation>
    </message>
    <message>
      <source>Not checked yet.</source>
      <translation>尚未检查。</translation>
    </message>
    <message>
      <source>Open a facts file (yolostudio doctor --save-facts FILE on the other machine) or a saved report</source>
      <translation>打开检测信息文件（在另一台机器上用 yolostudio doctor --save-facts FILE 生成）或保存的报告</translation>
    </message>
    <message>
      <source>Open facts…</source>
      <translation>打开检测信息…</translation>
    </message>
    <message>
      <source>PyTorch was replaced. Restart YOLO Studio now so every part of it uses the new build?</source>
      <translation>PyTorch 已被替换。现在重启 YOLO Studio，让它的每个部分都使用新版本吗？</translation>
    </message>
    <message>
      <source>Re-check</source>
      <translation>重新检查</translation>
    </message>
    <message>
      <source>Reading the system…</source>
      <translation>正在读取系统信息…</translation>
    </message>
    <message>
      <source>Repair…</source>
      <translation>修复…</translation>
    </message>
    <message>
      <source>Report saved to {path}. Paths under your home folder are shortened to ~.</source>
      <translation>报告已保存到 {path}。你的主文件夹下的路径已缩写为 ~。</translation>
    </message>
    <message>
      <source>Restart YOLO Studio?</source>
      <translation>重启 YOLO Studio 吗？</translation>
    </message>
    <message>
      <source>Save environment report</source>
      <translation>保存环境报告</translation>
    </message>
    <message>
      <source>Save facts and findings as JSON to attach to a bug report (Ctrl+S)</source>
      <translation>把检测信息和问题保存为 JSON，以便附在缺陷报告中（Ctrl+S）</translation>
    </message>
    <message>
      <source>Save report…</source>
      <translation>保存报告…</translation>
    </message>
    <message>
      <source>Starting the check…</source>
      <translation>正在开始检查…</translation>
    </message>
    <message>
      <source>Testing CUDA on each GPU…</source>
      <translation>正在每块 GPU 上测试 CUDA…</translation>
    </message>
    <message>
      <source>The check could not run. {reason} {hint}</source>
      <translation>检查无法运行。{reason} {hint}</translation>
    </message>
    <message>
      <source>The facts were incomplete: {notes}</source>
      <translation>检测信息不完整：{notes}</translation>
    </message>
    <message>
      <source>Timing the disks…</source>
      <translation>正在测量磁盘速度…</translation>
    </message>
    <message>
      <source>does not apply</source>
      <translation>不适用</translation>
    </message>
    <message>
      <source>not checked</source>
      <translation>未检查</translation>
    </message>
    <message>
      <source>the check was cancelled</source>
      <translation>检查已取消</translation>
    </message>
    <message>
      <source>{file}: {summary}</source>
      <translation>{file}：{summary}</translation>
    </message>
    <message>
      <source>{level} · {title}</source>
      <translation>{level} · {title}</translation>
    </message>
    <message>
      <source>{step} (step {n} of {count})</source>
      <translation>{step}（第 {n} 步，共 {count} 步）</translation>
    </message>
    <message>
      <source>{title} — {measured}</source>
      <translation>{title} — {measured}</translation>
    </message>
    <message>
      <source>{title} — {word}: {why}</source>
      <translation>{title} — {word}：{why}</translation>
    </message>
  </context>
  <context>
    <name>ErrorsBrowser</name>
    <message>
      <source>Accept the prediction as a label</source>
      <translation>把预测接受为标注</translation>
    </message>
    <message>
      <source>Change its class</source>
      <translation>更改其类别</translation>
    </message>
    <message>
      <source>Delete the label</source>
      <translation>删除该标注</translation>
    </message>
    <message>
      <source>Drawing {name}…</source>
      <translation>正在绘制 {name}…</translation>
    </message>
    <message>
      <source>Edit the boxes…</source>
      <translation>编辑框…</translation>
    </message>
    <message>
      <source>Errors of {weights} — YOLO Studio</source>
      <translation>{weights} 的错误 — YOLO Studio</translation>
    </message>
    <message>
      <source>Every class</source>
      <translation>所有类别</translation>
    </message>
    <message>
      <source>Every kind</source>
      <translation>所有种类</translation>
    </message>
    <message>
      <source>Export this list</source>
      <translation>导出此列表</translation>
    </message>
    <message>
      <source>Export this list…</source>
      <translation>导出此列表…</translation>
    </message>
    <message>
      <source>No errors match these filters.</source>
      <translation>没有符合这些筛选条件的错误。</translation>
    </message>
    <message>
      <source>Review the training images (held-out)…</source>
      <translation>审查训练图片（留出预测）…</translation>
    </message>
    <message>
      <source>Show:</source>
      <translation>显示：</translation>
    </message>
    <message>
      <source>Text files (*.txt)</source>
      <translation>文本文件 (*.txt)</translation>
    </message>
    <message>
      <source>Undo</source>
      <translation>撤销</translation>
    </message>
    <message>
      <source>Undone: {what} in {path}.</source>
      <translation>已撤销对 {path} 的修改：{what}。</translation>
    </message>
    <message>
      <source>confidence ≥ </source>
      <translation>置信度 ≥ </translation>
    </message>
    <message>
      <source>{name} (predicted)</source>
      <translation>{name}（预测）</translation>
    </message>
    <message>
      <source>{n} images written to {path}, the likeliest label mistake first.</source>
      <translation>已将 {n} 张图片写入 {path}，最可能的标注错误排在最前。</translation>
    </message>
    <message>
      <source>{path}: {what} (a .bak beside it; Ctrl+Z undoes it).</source>
      <translation>{path}：{what}（旁边留有 .bak；Ctrl+Z 可撤销）。</translation>
    </message>
    <message>
      <source>{predictions} The likeliest label mistake first; labels are solid, predictions dashed.</source>
      <translation>{predictions}最可能的标注错误排在最前；标注为实线，预测为虚线。</translation>
    </message>
    <message>
      <source>✓ {text} ({done})</source>
      <translation>✓ {text}（{done}）</translation>
    </message>
  </context>
  <context>
    <name>EvaluateOperations</name>
    <message>
      <source>Drawing {name}</source>
      <translation>正在绘制 {name}</translation>
    </message>
    <message>
      <source>Editing the label of {path}</source>
      <translation>正在编辑 {path} 的标注</translation>
    </message>
    <message>
      <source>Exporting the list</source>
      <translation>正在导出列表</translation>
    </message>
    <message>
      <source>Planning the evaluation</source>
      <translation>规划评估</translation>
    </message>
    <message>
      <source>Planning the held-out predictions</source>
      <translation>正在规划留出预测</translation>
    </message>
    <message>
      <source>Reading the evaluated images</source>
      <translation>读取评估过的图片</translation>
    </message>
    <message>
      <source>Reading the evaluation</source>
      <translation>读取评估结果</translation>
    </message>
    <message>
      <source>Undoing the edit of {path}</source>
      <translation>正在撤销对 {path} 的编辑</translation>
    </message>
    <message>
      <source>Writing the deployment report</source>
      <translation>正在写部署报告</translation>
    </message>
  </context>
  <context>
    <name>EvaluateWindow</name>
    <message>
      <source>At a false-alarm limit…</source>
      <translation>按误报上限…</translation>
    </message>
    <message>
      <source>At a target recall…</source>
      <translation>按目标召回率…</translation>
    </message>
    <message>
      <source>At the best-F1 confidence</source>
      <translation>在最佳 F1 的置信度下</translation>
    </message>
    <message>
      <source>Browse the errors…</source>
      <translation>浏览错误…</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Cancelled before the evaluation started.</source>
      <translation>已在评估开始前取消。</translation>
    </message>
    <message>
      <source>Cancelled: nothing was trained.</source>
      <translation>已取消：没有进行任何训练。</translation>
    </message>
    <message>
      <source>Could not plan the evaluation of run {name}: {reason}</source>
      <translation>无法规划训练 {name} 的评估：{reason}</translation>
    </message>
    <message>
      <source>Could not start the evaluation: {reason}</source>
      <translation>无法启动评估：{reason}</translation>
    </message>
    <message>
      <source>Could not start the held-out predictions: {reason}</source>
      <translation>无法开始留出预测：{reason}</translation>
    </message>
    <message>
      <source>Deployment report</source>
      <translation>部署报告</translation>
    </message>
    <message>
      <source>Deployment report written to {path}</source>
      <translation>部署报告已写入 {path}</translation>
    </message>
    <message>
      <source>Evaluate run {name} — YOLO Studio</source>
      <translation>评估训练 {name} — YOLO Studio</translation>
    </message>
    <message>
      <source>Evaluated and stored.</source>
      <translation>已评估并保存。</translation>
    </message>
    <message>
      <source>Held-out predictions for run {name} — YOLO Studio</source>
      <translation>训练 {name} 的留出预测 — YOLO Studio</translation>
    </message>
    <message>
      <source>Held-out predictions for the training images…</source>
      <translation>为训练图片做留出预测…</translation>
    </message>
    <message>
      <source>Held-out predictions for the {n} training images of run {run}: the run's own predictions on them are biased (it learned their labels), so {k} short trainings of {epochs} epochs — each on the other folds, with the run's settings and start weights — predict the images they did not learn. Estimated time: {estimate}.</source>
      <translation>为训练 {run} 的 {n} 张训练图片做留出预测：该训练自己对这些图片的预测是有偏的（它学过这些标注），因此进行 {k} 次各 {epochs} 个轮次的短训练——每次用其他折、沿用该训练的设置和起始权重——去预测它没学过的图片。预计用时：{estimate}。</translation>
    </message>
    <message>
      <source>No deployment report was written.</source>
      <translation>没有写出部署报告。</translation>
    </message>
    <message>
      <source>One printable page a QA engineer can sign: the model, its dataset, the operating confidence, precision and recall per class with their intervals, false alarms, latency and INT8's cost.</source>
      <translation>一页可打印、可供质检工程师签字的文档：模型、其数据集、工作置信度、各类别精确率和召回率及其区间、误报、延迟和 INT8 的代价。</translation>
    </message>
    <message>
      <source>Operate at the highest confidence that finds at least this share of the objects (0–1):</source>
      <translation>在仍能找到至少这一比例目标的最高置信度下工作（0–1）：</translation>
    </message>
    <message>
      <source>Operate at the lowest confidence with at most this many false alarms per 100 images:</source>
      <translation>在每 100 张图片误报不超过这个次数的最低置信度下工作：</translation>
    </message>
    <message>
      <source>Read back from the store: these inputs were evaluated before.</source>
      <translation>从存储中读回：这些输入之前已评估过。</translation>
    </message>
    <message>
      <source>Reading the weights and the dataset of run {name}…</source>
      <translation>正在读取训练 {name} 的权重和数据集…</translation>
    </message>
    <message>
      <source>Run {name} was not evaluated.</source>
      <translation>训练 {name} 未被评估。</translation>
    </message>
    <message>
      <source>Start the {k} trainings</source>
      <translation>开始这 {k} 次训练</translation>
    </message>
    <message>
      <source>Stopping the evaluation…</source>
      <translation>正在停止评估…</translation>
    </message>
    <message>
      <source>The evaluation ended without a result.</source>
      <translation>评估结束，但没有结果。</translation>
    </message>
    <message>
      <source>The evaluation was stopped; nothing was stored.</source>
      <translation>评估已停止；未保存任何内容。</translation>
    </message>
    <message>
      <source>The report could not be written: {reason}</source>
      <translation>无法写出报告：{reason}</translation>
    </message>
    <message>
      <source>The report is written to {path}. Open it?</source>
      <translation>报告已写入 {path}。现在打开吗？</translation>
    </message>
    <message>
      <source>The run's own predictions on its training images are biased. {k} short trainings, each on the other folds, predict the images they did not learn; the time it takes is said before it starts.</source>
      <translation>该训练自己对其训练图片的预测是有偏的。{k} 次短训练各用其他折训练，预测它们没学过的图片；开始前会先说明所需时间。</translation>
    </message>
    <message>
      <source>Training fold 1 of {k}…</source>
      <translation>正在训练第 1 折（共 {k} 折）…</translation>
    </message>
    <message>
      <source>Writing the deployment report…</source>
      <translation>正在写部署报告…</translation>
    </message>
    <message>
      <source>fold {fold} of {folds}: epoch {epoch} of {epochs}</source>
      <translation>第 {fold}/{folds} 折：第 {epoch}/{epochs} 轮</translation>
    </message>
    <message>
      <source>fold {fold} of {folds}: predicting its held-out images</source>
      <translation>第 {fold}/{folds} 折：正在预测其留出的图片</translation>
    </message>
  </context>
  <context>
    <name>EvaluationView</name>
    <message>
      <source>Class</source>
      <translation>类别</translation>
    </message>
    <message>
      <source>Confusion matrix</source>
      <translation>混淆矩阵</translation>
    </message>
    <message>
      <source>F1 against confidence</source>
      <translation>F1 与置信度</translation>
    </message>
    <message>
      <source>Held-out (k-fold) predictions of run {run} on the train split: {images} images, {instances} objects</source>
      <translation>训练 {run} 在训练划分上的留出（k 折）预测：{images} 张图片，{instances} 个目标</translation>
    </message>
    <message>
      <source>Instances</source>
      <translation>实例数</translation>
    </message>
    <message>
      <source>Nothing to change that the evaluation can see.</source>
      <translation>从评估结果看，没有需要改变的。</translation>
    </message>
    <message>
      <source>Per class</source>
      <translation>各类别</translation>
    </message>
    <message>
      <source>Precision–recall (IoU 0.5)</source>
      <translation>精确率–召回率（IoU 0.5）</translation>
    </message>
    <message>
      <source>The prescription judges the val evaluation (its size, its class mix against train); this one shows which training labels look wrong.</source>
      <translation>改进建议依据的是验证集评估（其大小、与训练集的类别构成对比）；这里显示的是哪些训练标注看起来有误。</translation>
    </message>
    <message>
      <source>What to change for the next run</source>
      <translation>下一次训练应改变的</translation>
    </message>
    <message>
      <source>all classes</source>
      <translation>所有类别</translation>
    </message>
    <message>
      <source>background</source>
      <translation>背景</translation>
    </message>
    <message>
      <source>confidence</source>
      <translation>置信度</translation>
    </message>
    <message>
      <source>precision</source>
      <translation>精确率</translation>
    </message>
    <message>
      <source>predicted {name}</source>
      <translation>预测 {name}</translation>
    </message>
    <message>
      <source>recall</source>
      <translation>召回率</translation>
    </message>
    <message>
      <source>true {name}</source>
      <translation>真实 {name}</translation>
    </message>
    <message>
      <source>{weights} on the {split} split: {images} images, {instances} objects</source>
      <translation>{weights} 在 {split} 划分上：{images} 张图片，{instances} 个目标</translation>
    </message>
  </context>
  <context>
    <name>ExportCard</name>
    <message>
      <source>Open folder</source>
      <translation>打开文件夹</translation>
    </message>
    <message>
      <source>Run this file on images and look at its detections</source>
      <translation>在图片上运行这个文件，查看它的检测结果</translation>
    </message>
    <message>
      <source>Try it</source>
      <translation>试一试</translation>
    </message>
  </context>
  <context>
    <name>ExportForm</name>
    <message>
      <source> px</source>
      <translation> 像素</translation>
    </message>
    <message>
      <source>&amp;Batch:</source>
      <translation>批大小(&amp;B)：</translation>
    </message>
    <message>
      <source>&amp;Dataset:</source>
      <translation>数据集(&amp;D)：</translation>
    </message>
    <message>
      <source>&amp;Image size:</source>
      <translation>图片尺寸(&amp;I)：</translation>
    </message>
    <message>
      <source>&amp;Weights:</source>
      <translation>权重(&amp;W)：</translation>
    </message>
    <message>
      <source>&lt;b&gt;{option}&lt;/b&gt;: {reason}</source>
      <translation>&lt;b&gt;{option}&lt;/b&gt;：{reason}</translation>
    </message>
    <message>
      <source>A run's best.pt or last.pt, or another .pt you picked</source>
      <translation>训练的 best.pt 或 last.pt，或你选择的其他 .pt</translation>
    </message>
    <message>
      <source>Dynamic batch and image size</source>
      <translation>动态批大小和图片尺寸</translation>
    </message>
    <message>
      <source>FP16 (half precision)</source>
      <translation>FP16（半精度）</translation>
    </message>
    <message>
      <source>Formats:</source>
      <translation>格式：</translation>
    </message>
    <message>
      <source>INT8 (calibrated on the dataset, its accuracy cost measured)</source>
      <translation>INT8（用数据集校准，并测量其精度代价）</translation>
    </message>
    <message>
      <source>ONNX</source>
      <translation>ONNX</translation>
    </message>
    <message>
      <source>ONNX &amp;opset:</source>
      <translation>ONNX opset(&amp;O)：</translation>
    </message>
    <message>
      <source>ONNX operator set; 17 suits TensorRT 10, ONNX Runtime and OpenCV.</source>
      <translation>ONNX 算子集；17 适用于 TensorRT 10、ONNX Runtime 和 OpenCV。</translation>
    </message>
    <message>
      <source>OpenVINO</source>
      <translation>OpenVINO</translation>
    </message>
    <message>
      <source>Other .pt…</source>
      <translation>其他 .pt…</translation>
    </message>
    <message>
      <source>Simplify the ONNX graph</source>
      <translation>简化 ONNX 计算图</translation>
    </message>
    <message>
      <source>TensorRT engine</source>
      <translation>TensorRT 引擎</translation>
    </message>
    <message>
      <source>The exported model's input size; a multiple of 32.</source>
      <translation>导出模型的输入尺寸；须为 32 的倍数。</translation>
    </message>
    <message>
      <source>TorchScript</source>
      <translation>TorchScript</translation>
    </message>
    <message>
      <source>data.yaml whose validation images verify the export (and calibrate INT8)</source>
      <translation>用其验证图片来验证导出结果（并校准 INT8）的 data.yaml</translation>
    </message>
    <message>
      <source>the run's own dataset</source>
      <translation>训练使用的数据集</translation>
    </message>
    <message>
      <source>{name} (picked file)</source>
      <translation>{name}（所选文件）</translation>
    </message>
    <message>
      <source>{run} · {file}</source>
      <translation>{run} · {file}</translation>
    </message>
    <message>
      <source>{weights} (still training)</source>
      <translation>{weights}（仍在训练）</translation>
    </message>
  </context>
  <context>
    <name>ExportOperations</name>
    <message>
      <source>Checking where {name} comes from</source>
      <translation>正在核实 {name} 的来源</translation>
    </message>
    <message>
      <source>Checking which export formats this machine can do</source>
      <translation>正在检查这台机器支持哪些导出格式</translation>
    </message>
    <message>
      <source>Finding the validation images</source>
      <translation>查找验证图片</translation>
    </message>
    <message>
      <source>Preparing the export</source>
      <translation>正在准备导出</translation>
    </message>
    <message>
      <source>Reading the export reports of {name}</source>
      <translation>正在读取 {name} 的导出报告</translation>
    </message>
    <message>
      <source>Reading the run of {name}</source>
      <translation>正在读取 {name} 所属的训练</translation>
    </message>
  </context>
  <context>
    <name>ExportPage</name>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Choose weights to export</source>
      <translation>选择要导出的权重</translation>
    </message>
    <message>
      <source>Could not list the validation images: {reason}</source>
      <translation>无法列出验证集图片：{reason}</translation>
    </message>
    <message>
      <source>Done: every file was verified against PyTorch.</source>
      <translation>完成：每个文件都已与 PyTorch 对比验证。</translation>
    </message>
    <message>
      <source>Done: {ok} of {total} files verified — see the cards below.</source>
      <translation>完成：{total} 个文件中 {ok} 个已验证——见下方卡片。</translation>
    </message>
    <message>
      <source>Earlier exports of {name}:</source>
      <translation>{name} 之前的导出：</translation>
    </message>
    <message>
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <source>Export and verify (Ctrl+Enter)</source>
      <translation>导出并验证（Ctrl+Enter）</translation>
    </message>
    <message>
      <source>Export cancelled; nothing was left half-written.</source>
      <translation>导出已取消；没有留下写了一半的文件。</translation>
    </message>
    <message>
      <source>Export failed.</source>
      <translation>导出失败。</translation>
    </message>
    <message>
      <source>Export failed: {message} {hint}</source>
      <translation>导出失败：{message} {hint}</translation>
    </message>
    <message>
      <source>Export trained weights to ONNX, TensorRT, TorchScript or OpenVINO; each file is run on your validation images and compared with PyTorch before it is called verified.</source>
      <translation>把训练好的权重导出为 ONNX、TensorRT、TorchScript 或 OpenVINO；每个文件都会在你的验证图片上运行，并与 PyTorch 对比，之后才标记为已验证。</translation>
    </message>
    <message>
      <source>Finding the validation images…</source>
      <translation>正在查找验证图片…</translation>
    </message>
    <message>
      <source>Images (*.jpg *.jpeg *.png *.bmp *.webp)</source>
      <translation>图片 (*.jpg *.jpeg *.png *.bmp *.webp)</translation>
    </message>
    <message>
      <source>Images to try</source>
      <translation>要试用的图片</translation>
    </message>
    <message>
      <source>No exports of {name} yet — choose formats, then press Export.</source>
      <translation>{name} 还没有导出过——选择格式，然后点击“导出”。</translation>
    </message>
    <message>
      <source>No validation images found: pick images instead.</source>
      <translation>没有找到验证图片：请改为选择图片。</translation>
    </message>
    <message>
      <source>No weights yet: train a run first, or pick a .pt with “Other .pt…”.</source>
      <translation>还没有权重：请先训练一次，或通过“其他 .pt…”选择一个 .pt。</translation>
    </message>
    <message>
      <source>Nothing exported yet — choose weights and formats, then press Export.</source>
      <translation>还没有导出——选择权重和格式，然后点击“导出”。</translation>
    </message>
    <message>
      <source>Options</source>
      <translation>选项</translation>
    </message>
    <message>
      <source>PyTorch checkpoints (*.pt)</source>
      <translation>PyTorch 检查点 (*.pt)</translation>
    </message>
    <message>
      <source>Reading the run of {name}…</source>
      <translation>正在读取 {name} 所属的训练…</translation>
    </message>
    <message>
      <source>Ready to export.</source>
      <translation>可以导出。</translation>
    </message>
    <message>
      <source>Reports</source>
      <translation>报告</translation>
    </message>
    <message>
      <source>Starting the export worker…</source>
      <translation>正在启动导出工作进程…</translation>
    </message>
    <message>
      <source>Try it</source>
      <translation>试一试</translation>
    </message>
    <message>
      <source>Try it failed: {message}</source>
      <translation>试用失败：{message}</translation>
    </message>
  </context>
  <context>
    <name>FindingFixes</name>
    <message>
      <source>'path' is now {folder}. Save (Ctrl+S) to keep it.</source>
      <translation>'path' 现在是 {folder}。保存（Ctrl+S）以保留它。</translation>
    </message>
    <message>
      <source>Could not undo the fix: {reason}</source>
      <translation>无法撤销修复：{reason}</translation>
    </message>
    <message>
      <source>Done: {what}. Undo fix puts it back.</source>
      <translation>完成：{what}。“撤销修复”可复原。</translation>
    </message>
    <message>
      <source>Re-root the dataset</source>
      <translation>重新设定数据集根目录</translation>
    </message>
    <message>
      <source>Set 'path' to {folder}</source>
      <translation>把 'path' 设为 {folder}</translation>
    </message>
    <message>
      <source>The fix failed: {reason}</source>
      <translation>修复失败：{reason}</translation>
    </message>
    <message>
      <source>The label file changed since the check; check again first.</source>
      <translation>检查之后标注文件已改变；请先重新检查。</translation>
    </message>
    <message>
      <source>There is no automatic fix for this finding; its message says what to do.</source>
      <translation>此问题没有自动修复；它的说明写了该怎么做。</translation>
    </message>
    <message>
      <source>Undone: {what}.</source>
      <translation>已撤销：{what}。</translation>
    </message>
  </context>
  <context>
    <name>FindingsView</name>
    <message>
      <source>All levels</source>
      <translation>所有级别</translation>
    </message>
    <message>
      <source>Change its class</source>
      <translation>更改其类别</translation>
    </message>
    <message>
      <source>Code</source>
      <translation>代码</translation>
    </message>
    <message>
      <source>Errors</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Fix: {what} — previewed first, and Undo fix puts it back.</source>
      <translation>修复：{what}——先预览，“撤销修复”可复原。</translation>
    </message>
    <message>
      <source>Fix…</source>
      <translation>修复…</translation>
    </message>
    <message>
      <source>Info</source>
      <translation>提示</translation>
    </message>
    <message>
      <source>Keep the box and give it one of the dataset's classes (previewed first; Undo fix puts it back)</source>
      <translation>保留这个框，并给它数据集中的一个类别（先预览；“撤销修复”可还原）</translation>
    </message>
    <message>
      <source>Level</source>
      <translation>级别</translation>
    </message>
    <message>
      <source>Looking for a fix…</source>
      <translation>正在查找修复…</translation>
    </message>
    <message>
      <source>Message</source>
      <translation>说明</translation>
    </message>
    <message>
      <source>No automatic fix for this finding: its message says what to do.</source>
      <translation>此问题没有自动修复：它的说明写了该怎么做。</translation>
    </message>
    <message>
      <source>Not checked yet. Press Check (F5) to validate every image and label.</source>
      <translation>尚未检查。按“检查”（F5）验证每张图片和标签。</translation>
    </message>
    <message>
      <source>Preview and apply the one-click fix for this finding (a backup is kept)</source>
      <translation>预览并应用这个问题的一键修复（会保留备份）</translation>
    </message>
    <message>
      <source>Select a finding to see its file here.</source>
      <translation>选择一个问题，在这里查看它的文件。</translation>
    </message>
    <message>
      <source>Show findings of level</source>
      <translation>显示该级别的问题</translation>
    </message>
    <message>
      <source>Undo fix</source>
      <translation>撤销修复</translation>
    </message>
    <message>
      <source>Undo: {what}</source>
      <translation>撤销：{what}</translation>
    </message>
    <message>
      <source>Warnings</source>
      <translation>警告</translation>
    </message>
    <message>
      <source>Where</source>
      <translation>位置</translation>
    </message>
    <message>
      <source>{id}: {name}</source>
      <translation>{id}：{name}</translation>
    </message>
  </context>
  <context>
    <name>FirstRunGuide</name>
    <message>
      <source>1. Check this machine</source>
      <translation>1. 检查这台机器</translation>
    </message>
    <message>
      <source>2. Choose the data</source>
      <translation>2. 选择数据</translation>
    </message>
    <message>
      <source>3. Fit the training to this machine</source>
      <translation>3. 让训练适配这台机器</translation>
    </message>
    <message>
      <source>4. Train</source>
      <translation>4. 训练</translation>
    </message>
    <message>
      <source>Check now</source>
      <translation>立即检查</translation>
    </message>
    <message>
      <source>Close the guide</source>
      <translation>关闭指南</translation>
    </message>
    <message>
      <source>Create from folders…</source>
      <translation>从文件夹创建…</translation>
    </message>
    <message>
      <source>Dataset: {path}</source>
      <translation>数据集：{path}</translation>
    </message>
    <message>
      <source>Four steps from a fresh install to a trained model. Each step opens the page that does it; skip any you don't need.</source>
      <translation>从全新安装到训练好的模型只需四步。每一步都会打开负责它的页面；不需要的步骤可以跳过。</translation>
    </message>
    <message>
      <source>Getting started</source>
      <translation>入门指南</translation>
    </message>
    <message>
      <source>Hide the steps</source>
      <translation>收起步骤</translation>
    </message>
    <message>
      <source>Is PyTorch using the GPU, and is the driver new enough? The check says what to fix.</source>
      <translation>PyTorch 是否在用 GPU，驱动是否够新？检查会告诉你需要修复什么。</translation>
    </message>
    <message>
      <source>It will not open again by itself; Help ▸ Getting started brings it back.</source>
      <translation>它不会再自动打开；可通过 帮助 ▸ 入门指南 重新打开。</translation>
    </message>
    <message>
      <source>Keep the guide to this line and give the pages its room; the steps come back with “Show the steps”.</source>
      <translation>指南只保留这一行，把空间让给页面；点“展开步骤”可把步骤找回来。</translation>
    </message>
    <message>
      <source>Open a data.yaml…</source>
      <translation>打开 data.yaml…</translation>
    </message>
    <message>
      <source>Open the wizard</source>
      <translation>打开向导</translation>
    </message>
    <message>
      <source>Review the options</source>
      <translation>检查选项</translation>
    </message>
    <message>
      <source>Review the options on the Train form: model, epochs, image size and batch size. Every option explains itself in its tooltip.</source>
      <translation>在训练表单中检查各项选项：模型、轮数、图片尺寸和批大小。每个选项的提示都会说明它的作用。</translation>
    </message>
    <message>
      <source>Show the steps</source>
      <translation>展开步骤</translation>
    </message>
    <message>
      <source>Start the run and watch losses, mAP and the GPU's load. A stopped run can be resumed; closing the window can keep it training.</source>
      <translation>开始训练，观察损失、mAP 和 GPU 负载。停止的训练可以继续；关闭窗口时可以让它继续训练。</translation>
    </message>
    <message>
      <source>Start training</source>
      <translation>开始训练</translation>
    </message>
    <message>
      <source>Start with the built-in demo dataset (trains in minutes on any machine), or use your own images and labels.</source>
      <translation>先用内置的演示数据集（在任何机器上几分钟就能训练完），或使用你自己的图片和标签。</translation>
    </message>
    <message>
      <source>The wizard measures this machine and recommends batch size, image size and data-loading workers.</source>
      <translation>向导会测量这台机器，并推荐批大小、图片尺寸和数据加载进程数。</translation>
    </message>
    <message>
      <source>Use the demo dataset</source>
      <translation>使用演示数据集</translation>
    </message>
  </context>
  <context>
    <name>FitnessChart</name>
    <message>
      <source>Fitness</source>
      <translation>适应度</translation>
    </message>
    <message>
      <source>Trial</source>
      <translation>试验</translation>
    </message>
  </context>
  <context>
    <name>GoalStep</name>
    <message>
      <source> h</source>
      <translation> 小时</translation>
    </message>
    <message>
      <source>&amp;Balanced — a good model in reasonable time</source>
      <translation>均衡——用合理的时间得到好模型(&amp;B)</translation>
    </message>
    <message>
      <source>&amp;Quick test — does it train at all? (small model, few epochs)</source>
      <translation>快速测试——能不能训练起来？（小模型，少量轮次）(&amp;Q)</translation>
    </message>
    <message>
      <source>At most</source>
      <translation>最多</translation>
    </message>
    <message>
      <source>Best &amp;accuracy — the largest model this machine trains well</source>
      <translation>最高精度——本机能训练好的最大模型(&amp;A)</translation>
    </message>
    <message>
      <source>Fixed at</source>
      <translation>固定为</translation>
    </message>
    <message>
      <source>Image size:</source>
      <translation>图片尺寸：</translation>
    </message>
    <message>
      <source>Time budget:</source>
      <translation>时间预算：</translation>
    </message>
    <message>
      <source>Without a budget, on a CPU the wizard fits the epochs to the goal: about {quick} for a quick test, {balanced} balanced, {accurate} for the best accuracy.</source>
      <translation>未设预算时，在 CPU 上向导按目标安排轮次：快速测试约 {quick}，均衡约 {balanced}，最高精度约 {accurate}。</translation>
    </message>
  </context>
  <context>
    <name>GuideRouter</name>
    <message>
      <source>Checking this machine… (the Environment page shows each step)</source>
      <translation>正在检查这台机器…（环境页面会显示每一步）</translation>
    </message>
    <message>
      <source>Make the data.yaml on the Dataset page; the Train form takes it from there.</source>
      <translation>请在数据集页面创建 data.yaml；训练表单会接着使用它。</translation>
    </message>
    <message>
      <source>Not started: the Train form lists what to fix first.</source>
      <translation>未开始：训练表单列出了需要先修复的问题。</translation>
    </message>
    <message>
      <source>Preparing the demo dataset… (the Train form shows its progress)</source>
      <translation>正在准备演示数据集…（训练表单显示进度）</translation>
    </message>
    <message>
      <source>The demo dataset is on the Train form.</source>
      <translation>演示数据集已填入训练表单。</translation>
    </message>
    <message>
      <source>The options are on the Train form.</source>
      <translation>选项在训练表单上。</translation>
    </message>
    <message>
      <source>The run trains with the wizard's settings.</source>
      <translation>这次训练使用向导的设置。</translation>
    </message>
    <message>
      <source>The wizard is open: its “Train with these settings” completes this step.</source>
      <translation>向导已打开：点击其中的“用这些设置训练”即完成这一步。</translation>
    </message>
    <message>
      <source>The wizard's settings are on the Train form.</source>
      <translation>向导的设置已填入训练表单。</translation>
    </message>
    <message>
      <source>Training. Watch it on the Train page.</source>
      <translation>正在训练。请在训练页面查看。</translation>
    </message>
  </context>
  <context>
    <name>GuideStep</name>
    <message>
      <source>Skip</source>
      <translation>跳过</translation>
    </message>
    <message>
      <source>Skipped.</source>
      <translation>已跳过。</translation>
    </message>
    <message>
      <source>This step is done.</source>
      <translation>这一步已完成。</translation>
    </message>
  </context>
  <context>
    <name>HardwareStep</name>
    <message>
      <source> · in {name}</source>
      <translation> · 运行于 {name}</translation>
    </message>
    <message>
      <source>CPU</source>
      <translation>CPU</translation>
    </message>
    <message>
      <source>GPU {index}: {name} · {mem:.0f} GB ({used:.1f} GB in use)</source>
      <translation>GPU {index}：{name} · {mem:.0f} GB（已用 {used:.1f} GB）</translation>
    </message>
    <message>
      <source>GPUs to train on</source>
      <translation>用于训练的 GPU</translation>
    </message>
    <message>
      <source>No NVIDIA GPU found: training runs on the CPU ({why}).</source>
      <translation>未找到 NVIDIA GPU：训练将在 CPU 上进行（{why}）。</translation>
    </message>
    <message>
      <source>Reading this machine…</source>
      <translation>正在读取本机信息…</translation>
    </message>
    <message>
      <source>Train on these GPUs (several: DDP through torchrun):</source>
      <translation>在这些 GPU 上训练（多块时通过 torchrun 使用 DDP）：</translation>
    </message>
    <message>
      <source>no driver</source>
      <translation>没有驱动</translation>
    </message>
    <message>
      <source>{cpu}: {cores} usable cores · {ram} GB RAM free · /dev/shm {shm} · {os}{container}</source>
      <translation>{cpu}：可用 {cores} 核 · 空闲内存 {ram} GB · /dev/shm {shm} · {os}{container}</translation>
    </message>
  </context>
  <context>
    <name>HostKeyDialog</name>
    <message>
      <source>Accept this key</source>
      <translation>接受此密钥</translation>
    </message>
    <message>
      <source>Unknown host key</source>
      <translation>未知的主机密钥</translation>
    </message>
    <message>
      <source>{dest} ({host}, port {port}) is not known yet. Compare the fingerprint below with the server's own (on the server: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub) and accept it only if they are the same.</source>
      <translation>{dest}（{host}，端口 {port}）尚未被信任。请把下面的指纹与服务器自己的指纹核对（在服务器上运行：ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub），只有两者相同时才接受。</translation>
    </message>
  </context>
  <context>
    <name>LabelPage</name>
    <message>
      <source>Adding the reviewed images to {path}</source>
      <translation>正在把已审核的图片加入 {path}</translation>
    </message>
    <message>
      <source>Checking the auto-label</source>
      <translation>正在检查自动标注</translation>
    </message>
    <message>
      <source>Could not start the auto-label: {reason}</source>
      <translation>无法启动自动标注：{reason}</translation>
    </message>
    <message>
      <source>Delete with no box selected: reject the image</source>
      <translation>未选中框时按 Delete：拒绝整张图片</translation>
    </message>
    <message>
      <source>Images to label</source>
      <translation>要标注的图片</translation>
    </message>
    <message>
      <source>Label</source>
      <translation>标注</translation>
    </message>
    <message>
      <source>Let a trained run propose boxes for new images, review them least certain first, add what you accept to a dataset and retrain.</source>
      <translation>用训练好的模型为新图片建议标注框，从最不确定的开始审核，把接受的加入数据集，然后重新训练。</translation>
    </message>
    <message>
      <source>Listing the review queues</source>
      <translation>正在列出审核队列</translation>
    </message>
    <message>
      <source>New images to auto-label</source>
      <translation>要自动标注的新图片</translation>
    </message>
    <message>
      <source>No reviewed image to add: accept images first (Enter).</source>
      <translation>没有已审核的图片可加入：请先接受图片（Enter）。</translation>
    </message>
    <message>
      <source>Open the app's window to retrain (the Train page runs it).</source>
      <translation>请在应用主窗口中重新训练（由训练页面运行）。</translation>
    </message>
    <message>
      <source>Queue {name} is ready: review it, least certain first.</source>
      <translation>队列 {name} 已就绪：请审核，最不确定的排在前面。</translation>
    </message>
    <message>
      <source>Reading the review queue {name}</source>
      <translation>正在读取审核队列 {name}</translation>
    </message>
    <message>
      <source>Reading {path}</source>
      <translation>正在读取 {path}</translation>
    </message>
    <message>
      <source>Recording the decision</source>
      <translation>正在记录决定</translation>
    </message>
    <message>
      <source>Skipped {id}: {why}</source>
      <translation>已跳过 {id}：{why}</translation>
    </message>
    <message>
      <source>Stopped. Auto-label again predicts the images left.</source>
      <translation>已停止。再次点击“自动标注”会预测剩下的图片。</translation>
    </message>
    <message>
      <source>Stopping after the current image; Auto-label again continues.</source>
      <translation>将在当前图片完成后停止；再次点击“自动标注”会继续。</translation>
    </message>
    <message>
      <source>The auto-label failed.</source>
      <translation>自动标注失败。</translation>
    </message>
    <message>
      <source>The dataset to add to</source>
      <translation>要加入的数据集</translation>
    </message>
    <message>
      <source>added</source>
      <translation>已加入</translation>
    </message>
    <message>
      <source>not predicted yet</source>
      <translation>尚未预测</translation>
    </message>
    <message>
      <source>rejected</source>
      <translation>已拒绝</translation>
    </message>
    <message>
      <source>reviewed</source>
      <translation>已审核</translation>
    </message>
    <message>
      <source>to review</source>
      <translation>待审核</translation>
    </message>
    <message>
      <source>unreadable</source>
      <translation>无法读取</translation>
    </message>
    <message>
      <source>{folder} holds no images yolov5 reads.</source>
      <translation>{folder} 中没有 yolov5 能读取的图片。</translation>
    </message>
    <message>
      <source>{id} could not be read: {why}</source>
      <translation>无法读取 {id}：{why}</translation>
    </message>
    <message>
      <source>{id} is in the dataset already: {where}</source>
      <translation>{id} 已在数据集中：{where}</translation>
    </message>
    <message>
      <source>{id} is not predicted yet: Auto-label again continues the queue.</source>
      <translation>{id} 尚未预测：再次点击“自动标注”会继续该队列。</translation>
    </message>
    <message>
      <source>{image} cannot be read as an image.</source>
      <translation>{image} 无法作为图片读取。</translation>
    </message>
  </context>
  <context>
    <name>Levels</name>
    <message>
      <source>Error</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Info</source>
      <translation>提示</translation>
    </message>
    <message>
      <source>OK</source>
      <translation>正常</translation>
    </message>
    <message>
      <source>Warning</source>
      <translation>警告</translation>
    </message>
  </context>
  <context>
    <name>LogView</name>
    <message>
      <source>Enlarge</source>
      <translation>放大</translation>
    </message>
    <message>
      <source>Give the log the room of the charts (click again to restore)</source>
      <translation>让日志占用图表的空间（再点一次恢复）</translation>
    </message>
    <message>
      <source>Log</source>
      <translation>日志</translation>
    </message>
    <message>
      <source>Open worker.log</source>
      <translation>打开 worker.log</translation>
    </message>
    <message>
      <source>Restore</source>
      <translation>恢复</translation>
    </message>
    <message>
      <source>The run's log appears here.</source>
      <translation>训练日志会显示在这里。</translation>
    </message>
    <message>
      <source>The worker's own output: library messages, warnings, tracebacks.</source>
      <translation>工作进程自己的输出：库的消息、警告和异常堆栈。</translation>
    </message>
  </context>
  <context>
    <name>LoopBar</name>
    <message>
      <source>Accept image (Enter)</source>
      <translation>接受图片（Enter）</translation>
    </message>
    <message>
      <source>Add reviewed to dataset</source>
      <translation>将已审核的加入数据集</translation>
    </message>
    <message>
      <source>Auto-label</source>
      <translation>自动标注</translation>
    </message>
    <message>
      <source>Auto-label with</source>
      <translation>自动标注，使用</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Confidence</source>
      <translation>置信度</translation>
    </message>
    <message>
      <source>Confidence at which a box is proposed</source>
      <translation>建议一个框所需的置信度</translation>
    </message>
    <message>
      <source>Dataset…</source>
      <translation>数据集…</translation>
    </message>
    <message>
      <source>Fine-tune the queue's run from its best.pt on the dataset as it is now (yolostudio train --from RUN)</source>
      <translation>从队列所属训练的 best.pt 出发，在数据集当前状态上微调（yolostudio train --from RUN）</translation>
    </message>
    <message>
      <source>Label a folder of images by hand (its label files are edited)</source>
      <translation>手动标注一个图片文件夹（直接编辑其标签文件）</translation>
    </message>
    <message>
      <source>Label a folder…</source>
      <translation>标注文件夹…</translation>
    </message>
    <message>
      <source>New images…</source>
      <translation>新图片…</translation>
    </message>
    <message>
      <source>No dataset chosen.</source>
      <translation>尚未选择数据集。</translation>
    </message>
    <message>
      <source>No folder chosen.</source>
      <translation>尚未选择文件夹。</translation>
    </message>
    <message>
      <source>Predict the images not predicted yet into a review queue (never into a dataset); run again to continue after a stop</source>
      <translation>把尚未预测的图片预测到审核队列中（绝不直接进入数据集）；停止后再次运行即可继续</translation>
    </message>
    <message>
      <source>Reject image (Delete)</source>
      <translation>拒绝图片（Delete）</translation>
    </message>
    <message>
      <source>Retrain</source>
      <translation>重新训练</translation>
    </message>
    <message>
      <source>Review</source>
      <translation>审核</translation>
    </message>
    <message>
      <source>The review queues of this workspace</source>
      <translation>此工作区的审核队列</translation>
    </message>
    <message>
      <source>The run whose best weights propose the boxes</source>
      <translation>用其最佳权重建议标注框的训练</translation>
    </message>
    <message>
      <source>Write the reviewed images and their accepted boxes into the dataset's split; rejected ones never go in</source>
      <translation>把已审核的图片及其接受的框写入数据集的划分；被拒绝的绝不会加入</translation>
    </message>
  </context>
  <context>
    <name>MachineRunsBox</name>
    <message>
      <source>Ask each machine of the Machines page for its runs (over ssh)</source>
      <translation>向“机器”页中的每台机器询问它的训练（通过 ssh）</translation>
    </message>
    <message>
      <source>Asking the machines for their runs …</source>
      <translation>正在向各机器询问它们的训练 …</translation>
    </message>
    <message>
      <source>Bring its weights, evaluations and exports here, each file verified</source>
      <translation>把它的权重、评估和导出取回本机，每个文件都经过校验</translation>
    </message>
    <message>
      <source>Epochs</source>
      <translation>轮数</translation>
    </message>
    <message>
      <source>Fetch</source>
      <translation>取回</translation>
    </message>
    <message>
      <source>Fetching {run} from {name} …</source>
      <translation>正在从 {name} 取回 {run} …</translation>
    </message>
    <message>
      <source>Follow the run there while it trains (or replay it), on the Train page</source>
      <translation>在训练页跟踪那里正在进行的训练（或回放它）</translation>
    </message>
    <message>
      <source>List runs on machines</source>
      <translation>列出机器上的训练</translation>
    </message>
    <message>
      <source>Machine</source>
      <translation>机器</translation>
    </message>
    <message>
      <source>Open on the Train page</source>
      <translation>在训练页打开</translation>
    </message>
    <message>
      <source>Run</source>
      <translation>训练</translation>
    </message>
    <message>
      <source>Runs on machines</source>
      <translation>机器上的训练</translation>
    </message>
    <message>
      <source>Runs on the machines are listed when you ask.</source>
      <translation>机器上的训练在你请求时才会列出。</translation>
    </message>
    <message>
      <source>Started</source>
      <translation>开始时间</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>{name}: {reason}</source>
      <translation>{name}：{reason}</translation>
    </message>
    <message>
      <source>{n} files changed while fetched: fetch again.</source>
      <translation>{n} 个文件在取回时发生了变化：请重新取回。</translation>
    </message>
    <message>
      <source>{n} runs on the machines.</source>
      <translation>机器上共有 {n} 个训练。</translation>
    </message>
    <message>
      <source>{run} from {name}: {n} files in {folder}; {adopted} checkpoints verified, {foreign} foreign (asked about before they are loaded).</source>
      <translation>来自 {name} 的 {run}：{n} 个文件，位于 {folder}；{adopted} 个检查点已验证，{foreign} 个为外来文件（加载之前会询问你）。</translation>
    </message>
  </context>
  <context>
    <name>MachineStatusBar</name>
    <message>
      <source>CPU {percent} %</source>
      <translation>CPU {percent} %</translation>
    </message>
    <message>
      <source>GPU {index} {name} · {util} % · {used}/{total} GB</source>
      <translation>GPU {index} {name} · {util} % · {used}/{total} GB</translation>
    </message>
    <message>
      <source>GPU: checking…</source>
      <translation>GPU：正在检查…</translation>
    </message>
    <message>
      <source>No NVIDIA GPU</source>
      <translation>没有 NVIDIA GPU</translation>
    </message>
    <message>
      <source>No NVIDIA GPU could be read through NVML: training uses the CPU.</source>
      <translation>通过 NVML 读不到任何 NVIDIA GPU：训练使用 CPU。</translation>
    </message>
    <message>
      <source>No active run</source>
      <translation>没有进行中的训练</translation>
    </message>
    <message>
      <source>RAM {used}/{total} GB</source>
      <translation>内存 {used}/{total} GB</translation>
    </message>
    <message>
      <source>{first} (+{more} more)</source>
      <translation>{first}（另有 {more} 块）</translation>
    </message>
  </context>
  <context>
    <name>MachinesOperations</name>
    <message>
      <source>Accepting the host key of {dest}</source>
      <translation>正在接受 {dest} 的主机密钥</translation>
    </message>
    <message>
      <source>Checking {name}</source>
      <translation>正在检查 {name}</translation>
    </message>
    <message>
      <source>Connecting to {dest}</source>
      <translation>正在连接 {dest}</translation>
    </message>
    <message>
      <source>Installing YOLO Studio on {name}</source>
      <translation>在 {name} 上安装 YOLO Studio</translation>
    </message>
    <message>
      <source>Reading the machines</source>
      <translation>正在读取机器列表</translation>
    </message>
    <message>
      <source>Saving the machine</source>
      <translation>正在保存机器</translation>
    </message>
  </context>
  <context>
    <name>MachinesPage</name>
    <message>
      <source>Add a machine</source>
      <translation>添加一台机器</translation>
    </message>
    <message>
      <source>Add machine</source>
      <translation>添加机器</translation>
    </message>
    <message>
      <source>Added {name}. Check it to see what the doctor finds there.</source>
      <translation>已添加 {name}。检查它，看看环境检查在那里发现了什么。</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Check the selected machine</source>
      <translation>检查选中的机器</translation>
    </message>
    <message>
      <source>Connecting to {dest} …</source>
      <translation>正在连接 {dest} …</translation>
    </message>
    <message>
      <source>Install YOLO Studio there</source>
      <translation>在那里安装 YOLO Studio</translation>
    </message>
    <message>
      <source>Install it with the button above, or by hand:</source>
      <translation>用上方的按钮安装，或手动安装：</translation>
    </message>
    <message>
      <source>Installing YOLO Studio on {name} …</source>
      <translation>正在 {name} 上安装 YOLO Studio …</translation>
    </message>
    <message>
      <source>It has no internet: send a wheel set from this computer</source>
      <translation>它无法上网：从本机发送 wheel 包集</translation>
    </message>
    <message>
      <source>Machines</source>
      <translation>机器</translation>
    </message>
    <message>
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>No machines yet: add one above.</source>
      <translation>还没有机器：请在上面添加一台。</translation>
    </message>
    <message>
      <source>Running the doctor on {name} …</source>
      <translation>正在 {name} 上运行环境检查 …</translation>
    </message>
    <message>
      <source>SSH config file</source>
      <translation>SSH 配置文件</translation>
    </message>
    <message>
      <source>SSH destination</source>
      <translation>SSH 目标</translation>
    </message>
    <message>
      <source>Select a machine and check it: the doctor runs there.</source>
      <translation>选中一台机器并检查它：环境检查会在那里运行。</translation>
    </message>
    <message>
      <source>Sending {sent} of {total}</source>
      <translation>正在发送 {sent} / {total}</translation>
    </message>
    <message>
      <source>Servers reached by SSH with your own keys: add one, check it with the doctor there, then train on it.</source>
      <translation>用你自己的密钥通过 SSH 连接的服务器：添加一台，在那里运行环境检查，然后在上面训练。</translation>
    </message>
    <message>
      <source>The host key was not accepted; nothing was saved.</source>
      <translation>主机密钥未被接受；没有保存任何内容。</translation>
    </message>
    <message>
      <source>Workspace there</source>
      <translation>那里的工作区</translation>
    </message>
    <message>
      <source>YOLO Studio is installed on {name} ({command}). Check it again to see what the doctor finds there.</source>
      <translation>YOLO Studio 已安装在 {name} 上（{command}）。再检查一次，看看环境检查在那里发现了什么。</translation>
    </message>
    <message>
      <source>YOLO Studio there</source>
      <translation>那里的 YOLO Studio</translation>
    </message>
    <message>
      <source>host, user@host or an alias of ~/.ssh/config</source>
      <translation>主机、user@host 或 ~/.ssh/config 中的别名</translation>
    </message>
    <message>
      <source>optional: another ssh config file (ssh -F)</source>
      <translation>可选：另一个 ssh 配置文件（ssh -F）</translation>
    </message>
    <message>
      <source>{name}: {summary}</source>
      <translation>{name}：{summary}</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <source>&amp;About YOLO Studio</source>
      <translation>关于 YOLO Studio(&amp;A)</translation>
    </message>
    <message>
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <source>&amp;Getting started</source>
      <translation>入门指南(&amp;G)</translation>
    </message>
    <message>
      <source>&amp;Help</source>
      <translation>帮助(&amp;H)</translation>
    </message>
    <message>
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <source>&amp;Settings…</source>
      <translation>设置(&amp;S)…</translation>
    </message>
    <message>
      <source>Checks the GPU driver, CUDA and PyTorch, and says what to fix so training can use the GPU.</source>
      <translation>检查 GPU 驱动、CUDA 和 PyTorch，并说明需要修复什么，让训练能用上 GPU。</translation>
    </message>
    <message>
      <source>Coming soon: {what}</source>
      <translation>即将推出：{what}</translation>
    </message>
    <message>
      <source>Dataset</source>
      <translation>数据集</translation>
    </message>
    <message>
      <source>Draws and fixes boxes image by image, keyboard first, the images that most need a person first.</source>
      <translation>逐张图片画框和修正框，以键盘为主，最需要人工查看的图片排在最前。</translation>
    </message>
    <message>
      <source>Environment</source>
      <translation>环境</translation>
    </message>
    <message>
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <source>Exports trained weights to ONNX, TensorRT and TorchScript, and checks the result against PyTorch.</source>
      <translation>把训练好的权重导出为 ONNX、TensorRT 和 TorchScript，并与 PyTorch 对比检查结果。</translation>
    </message>
    <message>
      <source>Kill it and close now? Its outputs may be unusable.</source>
      <translation>现在强制结束它并关闭？它的输出可能无法使用。</translation>
    </message>
    <message>
      <source>Kill now</source>
      <translation>立即强制结束</translation>
    </message>
    <message>
      <source>Label</source>
      <translation>标注</translation>
    </message>
    <message>
      <source>Lists every run with its status and results, to compare, resume or clean up.</source>
      <translation>列出每次训练的状态和结果，用于比较、继续训练或清理。</translation>
    </message>
    <message>
      <source>Machines</source>
      <translation>机器</translation>
    </message>
    <message>
      <source>Opens or creates a data.yaml, checks images and labels, and shows class statistics.</source>
      <translation>打开或创建 data.yaml，检查图片和标签，并显示类别统计。</translation>
    </message>
    <message>
      <source>Predict</source>
      <translation>预测</translation>
    </message>
    <message>
      <source>Recommends batch size, image size and workers for this machine, measured, with reasons.</source>
      <translation>为这台机器推荐批大小、图片尺寸和加载进程数，基于实测，并给出理由。</translation>
    </message>
    <message>
      <source>Runs</source>
      <translation>训练记录</translation>
    </message>
    <message>
      <source>Runs a trained model on images, folders, videos, cameras and streams, and shows what it finds live.</source>
      <translation>在图片、文件夹、视频、摄像头和视频流上运行训练好的模型，并实时显示检测结果。</translation>
    </message>
    <message>
      <source>Searches for better training settings on Ray Tune: many short trials side by side, the poor ones stopped early.</source>
      <translation>用 Ray Tune 搜索更好的训练设置：许多短试验并行运行，表现差的提前停止。</translation>
    </message>
    <message>
      <source>Servers reached by SSH: add one (its host key shown for you to accept), check it with the doctor there.</source>
      <translation>通过 SSH 连接的服务器：添加一台（会显示它的主机密钥，由你确认接受），并在那里运行环境检查。</translation>
    </message>
    <message>
      <source>Still stopping</source>
      <translation>仍在停止</translation>
    </message>
    <message>
      <source>Stop and close?</source>
      <translation>停止并关闭？</translation>
    </message>
    <message>
      <source>Stop it and close YOLO Studio?</source>
      <translation>停止它并关闭 YOLO Studio？</translation>
    </message>
    <message>
      <source>Stopping</source>
      <translation>正在停止</translation>
    </message>
    <message>
      <source>Stopping the run: finishing the current batch and saving a checkpoint…</source>
      <translation>正在停止训练：完成当前批次并保存检查点…</translation>
    </message>
    <message>
      <source>Train</source>
      <translation>训练</translation>
    </message>
    <message>
      <source>Train a model and watch it learn.</source>
      <translation>训练模型，观察它的学习过程。</translation>
    </message>
    <message>
      <source>Tune</source>
      <translation>调参</translation>
    </message>
    <message>
      <source>Wizard</source>
      <translation>向导</translation>
    </message>
    <message>
      <source>YOLO Studio</source>
      <translation>YOLO Studio</translation>
    </message>
    <message>
      <source>from the environment check</source>
      <translation>来自环境检查</translation>
    </message>
    <message>
      <source>{title}
Coming soon</source>
      <translation>{title}
即将推出</translation>
    </message>
  </context>
  <context>
    <name>MeasureStep</name>
    <message>
      <source>&amp;Measure</source>
      <translation>测量(&amp;M)</translation>
    </message>
    <message>
      <source>&amp;Skip (estimate)</source>
      <translation>跳过（估算）(&amp;S)</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Measurements</source>
      <translation>测量结果</translation>
    </message>
    <message>
      <source>Measuring takes about a minute: yolov5's own data loader on a sample of your images at each worker count (originals, a resized copy, a RAM cache), the model's training speed, and on a GPU the largest batch that fits. Nothing is changed in your dataset.</source>
      <translation>测量约需一分钟：用 yolov5 自己的数据加载器在你的图片样本上按各种加载进程数测速（原图、缩放副本、内存缓存），测模型的训练速度，在 GPU 上还会找出能放下的最大批。你的数据集不会被改动。</translation>
    </message>
    <message>
      <source>{step}: measuring…</source>
      <translation>{step}：测量中…</translation>
    </message>
    <message>
      <source>{step}: not measured — {detail}</source>
      <translation>{step}：未测量——{detail}</translation>
    </message>
    <message>
      <source>{step}: {detail}</source>
      <translation>{step}：{detail}</translation>
    </message>
  </context>
  <context>
    <name>Operations</name>
    <message>
      <source>A background task</source>
      <translation>一个后台任务</translation>
    </message>
    <message>
      <source>{reason}: {file}</source>
      <translation>{reason}：{file}</translation>
    </message>
    <message>
      <source>{what} failed: {reason}</source>
      <translation>{what}失败：{reason}</translation>
    </message>
  </context>
  <context>
    <name>PendingPage</name>
    <message>
      <source>Loading {page}…</source>
      <translation>正在加载{page}…</translation>
    </message>
  </context>
  <context>
    <name>PlaceholderPage</name>
    <message>
      <source>Coming soon</source>
      <translation>即将推出</translation>
    </message>
    <message>
      <source>Coming soon — this page is not built yet. Meanwhile, the Train page trains on the demo dataset or on your own data.yaml.</source>
      <translation>即将推出——这个页面还没有完成。目前可以在训练页面用演示数据集或你自己的 data.yaml 训练。</translation>
    </message>
  </context>
  <context>
    <name>PredictOperations</name>
    <message>
      <source>Listing the runs' models</source>
      <translation>正在列出各次训练的模型</translation>
    </message>
    <message>
      <source>Preparing the prediction</source>
      <translation>正在准备预测</translation>
    </message>
  </context>
  <context>
    <name>PredictPage</name>
    <message>
      <source> px</source>
      <translation> 像素</translation>
    </message>
    <message>
      <source> · {tiles} tiles, {ms:.0f} ms (whole image {whole:.0f} ms)</source>
      <translation> · {tiles} 个切片，{ms:.0f} 毫秒（整图 {whole:.0f} 毫秒）</translation>
    </message>
    <message>
      <source>, </source>
      <translation>、</translation>
    </message>
    <message>
      <source>A prediction is running; its outputs ({folder}) are closed properly only when it stops — a video cut off by a kill does not play.</source>
      <translation>预测正在进行；它的输出（{folder}）只有在它停止时才会被正确关闭——被强制结束而中断的视频无法播放。</translation>
    </message>
    <message>
      <source>Also predicts overlapping tiles of each image and merges the boxes: finds smaller objects, costs one model call per tile.</source>
      <translation>另外对每张图片的重叠切片做预测并合并框：能找到更小的目标，每个切片多一次模型调用。</translation>
    </message>
    <message>
      <source>Boxes of one class overlapping more than this are merged (applies at once)</source>
      <translation>同一类别中重叠超过此值的框会被合并（立即生效）</translation>
    </message>
    <message>
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <source>Choose a folder of images or videos</source>
      <translation>选择图片或视频所在的文件夹</translation>
    </message>
    <message>
      <source>Choose a model</source>
      <translation>选择模型</translation>
    </message>
    <message>
      <source>Choose a model and a source, then press Start: the frames and the model's boxes show here.</source>
      <translation>选择模型和来源，然后按“开始”：画面和模型的框会显示在这里。</translation>
    </message>
    <message>
      <source>Choose a model first: a run's weights or an exported file (Browse…).</source>
      <translation>请先选择模型：某次训练的权重或导出的文件（浏览…）。</translation>
    </message>
    <message>
      <source>Choose an image or a video</source>
      <translation>选择图片或视频</translation>
    </message>
    <message>
      <source>Confidence ≥</source>
      <translation>置信度 ≥</translation>
    </message>
    <message>
      <source>File…</source>
      <translation>文件…</translation>
    </message>
    <message>
      <source>Folder…</source>
      <translation>文件夹…</translation>
    </message>
    <message>
      <source>Give a source: an image, a folder, a video, a camera index (0) or a stream's address.</source>
      <translation>请给出来源：图片、文件夹、视频、摄像头编号（0）或视频流地址。</translation>
    </message>
    <message>
      <source>Image size</source>
      <translation>图片尺寸</translation>
    </message>
    <message>
      <source>Images and videos (*.jpg *.jpeg *.png *.bmp *.webp *.tif *.tiff *.mp4 *.avi *.mov *.mkv *.webm)</source>
      <translation>图片和视频 (*.jpg *.jpeg *.png *.bmp *.webp *.tif *.tiff *.mp4 *.avi *.mov *.mkv *.webm)</translation>
    </message>
    <message>
      <source>IoU ≤</source>
      <translation>IoU ≤</translation>
    </message>
    <message>
      <source>Loading the model…</source>
      <translation>正在加载模型…</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Model and source</source>
      <translation>模型和来源</translation>
    </message>
    <message>
      <source>Models (*.pt *.onnx *.torchscript *.engine *.xml)</source>
      <translation>模型 (*.pt *.onnx *.torchscript *.engine *.xml)</translation>
    </message>
    <message>
      <source>No frames: see the message above.</source>
      <translation>没有画面：请看上方的消息。</translation>
    </message>
    <message>
      <source>No run with weights yet: Browse… for a model file</source>
      <translation>还没有带权重的训练记录：点“浏览…”选择模型文件</translation>
    </message>
    <message>
      <source>Open folder</source>
      <translation>打开文件夹</translation>
    </message>
    <message>
      <source>Outputs</source>
      <translation>输出</translation>
    </message>
    <message>
      <source>Outputs: a new folder under the run, made when you start.</source>
      <translation>输出：开始时在该训练的文件夹下新建一个文件夹。</translation>
    </message>
    <message>
      <source>Outputs: {path}</source>
      <translation>输出：{path}</translation>
    </message>
    <message>
      <source>Overlap</source>
      <translation>重叠</translation>
    </message>
    <message>
      <source>Predict</source>
      <translation>预测</translation>
    </message>
    <message>
      <source>Predicting with {backend} at {imgsz} pixels…</source>
      <translation>正在用 {backend} 以 {imgsz} 像素预测…</translation>
    </message>
    <message>
      <source>Prediction failed.</source>
      <translation>预测失败。</translation>
    </message>
    <message>
      <source>Run a trained model (its .pt or any export) on images, a folder, a video, a camera or a stream, and watch what it finds.</source>
      <translation>在图片、文件夹、视频、摄像头或视频流上运行训练好的模型（.pt 或任一导出文件），查看它找到了什么。</translation>
    </message>
    <message>
      <source>Show only boxes at or above this confidence (applies at once)</source>
      <translation>只显示置信度不低于此值的框（立即生效）</translation>
    </message>
    <message>
      <source>Shown boxes</source>
      <translation>显示的框</translation>
    </message>
    <message>
      <source>Sliced inference (small objects in large images)</source>
      <translation>切片推理（大图中的小目标）</translation>
    </message>
    <message>
      <source>Source</source>
      <translation>来源</translation>
    </message>
    <message>
      <source>Start</source>
      <translation>开始</translation>
    </message>
    <message>
      <source>Stop</source>
      <translation>停止</translation>
    </message>
    <message>
      <source>Stopping…</source>
      <translation>正在停止…</translation>
    </message>
    <message>
      <source>This frame: no boxes at these thresholds.</source>
      <translation>本帧：在这些阈值下没有框。</translation>
    </message>
    <message>
      <source>This frame: {counts}</source>
      <translation>本帧：{counts}</translation>
    </message>
    <message>
      <source>Tile</source>
      <translation>切片</translation>
    </message>
    <message>
      <source>Written so far (thresholds of Start): {counts}</source>
      <translation>已写入（按开始时的阈值）：{counts}</translation>
    </message>
    <message>
      <source>an image, a folder, a video, 0 for the first camera, or rtsp://…</source>
      <translation>图片、文件夹、视频，0 表示第一个摄像头，或 rtsp://…</translation>
    </message>
    <message>
      <source>not created yet</source>
      <translation>尚未创建</translation>
    </message>
    <message>
      <source>{fps:.1f} frames/s · {n} done · {where}</source>
      <translation>{fps:.1f} 帧/秒 · 已完成 {n} · {where}</translation>
    </message>
    <message>
      <source>{n} files skipped (not readable).</source>
      <translation>跳过了 {n} 个文件（无法读取）。</translation>
    </message>
  </context>
  <context>
    <name>PrepareAction</name>
    <message>
      <source> ({n} unreadable, copied as they are)</source>
      <translation>（{n} 张无法读取，按原样复制）</translation>
    </message>
    <message>
      <source>Already up to date</source>
      <translation>已是最新</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Prepare a resized copy</source>
      <translation>准备缩放副本</translation>
    </message>
    <message>
      <source>Prepared {n} images</source>
      <translation>已准备 {n} 张图片</translation>
    </message>
    <message>
      <source>Preparing the copy failed: {reason}</source>
      <translation>准备副本失败：{reason}</translation>
    </message>
    <message>
      <source>Resizing images to {n} px…</source>
      <translation>正在把图片缩放到 {n} 像素…</translation>
    </message>
    <message>
      <source>Training image size (the copy's long side; images are never enlarged):</source>
      <translation>训练图片尺寸（副本的长边；图片绝不放大）：</translation>
    </message>
    <message>
      <source>{words}{failed}. Train on {path} — your own data.yaml stays the one checked here.</source>
      <translation>{words}{failed}。请用 {path} 训练——这里检查的仍是你自己的 data.yaml。</translation>
    </message>
  </context>
  <context>
    <name>ProblemList</name>
    <message>
      <source>&lt;b&gt;{level}&lt;/b&gt; · {field}: {message}</source>
      <translation>&lt;b&gt;{level}&lt;/b&gt; · {field}：{message}</translation>
    </message>
    <message>
      <source>&lt;b&gt;{level}&lt;/b&gt; · {field}: {message}&lt;br&gt;{hint}</source>
      <translation>&lt;b&gt;{level}&lt;/b&gt; · {field}：{message}&lt;br&gt;{hint}</translation>
    </message>
    <message>
      <source>Checking the options…</source>
      <translation>正在检查选项…</translation>
    </message>
    <message>
      <source>Ready to train.</source>
      <translation>可以开始训练。</translation>
    </message>
  </context>
  <context>
    <name>ProgressPanel</name>
    <message>
      <source>Epoch:</source>
      <translation>轮次：</translation>
    </message>
    <message>
      <source>Idle: nothing is training.</source>
      <translation>空闲：没有正在进行的训练。</translation>
    </message>
    <message>
      <source>No run yet — choose a dataset and press Start.</source>
      <translation>还没有训练——选择数据集后点击“开始”。</translation>
    </message>
    <message>
      <source>Run:</source>
      <translation>总进度：</translation>
    </message>
  </context>
  <context>
    <name>ProgressRow</name>
    <message>
      <source> · about {s} s left</source>
      <translation> · 约剩 {s} 秒</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Searching folders: {n} so far…</source>
      <translation>正在搜索文件夹：已搜索 {n} 个…</translation>
    </message>
    <message>
      <source>{done} / {total} files{eta}</source>
      <translation>{done} / {total} 个文件{eta}</translation>
    </message>
  </context>
  <context>
    <name>RemoteStart</name>
    <message>
      <source>Comparing the dataset with {name}…</source>
      <translation>正在与 {name} 比对数据集…</translation>
    </message>
    <message>
      <source>Nothing was started on {name}: {reason}</source>
      <translation>{name} 上未启动任何训练：{reason}</translation>
    </message>
    <message>
      <source>Sending {sent} of {total} to {name}…</source>
      <translation>正在发送到 {name}：{sent} / {total}…</translation>
    </message>
  </context>
  <context>
    <name>RepairDialog</name>
    <message>
      <source>Command</source>
      <translation>命令</translation>
    </message>
    <message>
      <source>Command (runs in the app's own environment):</source>
      <translation>命令（在应用自己的环境中运行）：</translation>
    </message>
    <message>
      <source>Command copied.</source>
      <translation>命令已复制。</translation>
    </message>
    <message>
      <source>Copy command</source>
      <translation>复制命令</translation>
    </message>
    <message>
      <source>Install</source>
      <translation>安装</translation>
    </message>
    <message>
      <source>Install the PyTorch build for this machine: {tag}</source>
      <translation>为这台机器安装 PyTorch 版本：{tag}</translation>
    </message>
    <message>
      <source>Making sure no training run uses this PyTorch…</source>
      <translation>正在确认没有训练在使用这个 PyTorch…</translation>
    </message>
    <message>
      <source>PyTorch {torch} is installed. The environment is being checked again.</source>
      <translation>已安装 PyTorch {torch}。正在重新检查环境。</translation>
    </message>
    <message>
      <source>Repair PyTorch</source>
      <translation>修复 PyTorch</translation>
    </message>
    <message>
      <source>Repaired. Restart YOLO Studio so everything uses the new PyTorch.</source>
      <translation>已修复。请重启 YOLO Studio，让所有部分都使用新的 PyTorch。</translation>
    </message>
    <message>
      <source>Starting pip…</source>
      <translation>正在启动 pip…</translation>
    </message>
    <message>
      <source>Stop</source>
      <translation>停止</translation>
    </message>
    <message>
      <source>Stopped before anything was replaced; PyTorch is unchanged.</source>
      <translation>在替换任何文件之前已停止；PyTorch 未改变。</translation>
    </message>
    <message>
      <source>Stopping…</source>
      <translation>正在停止…</translation>
    </message>
    <message>
      <source>The repair failed; PyTorch was left as it was or as pip left it.</source>
      <translation>修复失败；PyTorch 保持原样，或保持 pip 留下的状态。</translation>
    </message>
    <message>
      <source>Training is running ({runs}) with this PyTorch; replacing it now would break the run. Stop it (or let it finish), then repair.</source>
      <translation>正在用这个 PyTorch 训练（{runs}）；现在替换会破坏训练。请先停止训练（或等它结束），再修复。</translation>
    </message>
    <message>
      <source>Try again</source>
      <translation>重试</translation>
    </message>
    <message>
      <source>pip failed; see the log.</source>
      <translation>pip 失败；请查看日志。</translation>
    </message>
    <message>
      <source>pip is still running; stop it first (possible while it downloads) or wait for it to finish.</source>
      <translation>pip 仍在运行；请先停止它（下载期间可以停止）或等它完成。</translation>
    </message>
    <message>
      <source>pip's output appears here.</source>
      <translation>pip 的输出会显示在这里。</translation>
    </message>
  </context>
  <context>
    <name>RunStatusPanel</name>
    <message>
      <source> epochs</source>
      <translation> 轮</translation>
    </message>
    <message>
      <source>(the log is empty)</source>
      <translation>（日志为空）</translation>
    </message>
    <message>
      <source>&lt;b&gt;What to do:&lt;/b&gt; {hint}</source>
      <translation>&lt;b&gt;怎么办：&lt;/b&gt;{hint}</translation>
    </message>
    <message>
      <source>Average speed</source>
      <translation>平均速度</translation>
    </message>
    <message>
      <source>Best mAP@0.5</source>
      <translation>最佳 mAP@0.5</translation>
    </message>
    <message>
      <source>Best mAP@0.5:0.95</source>
      <translation>最佳 mAP@0.5:0.95</translation>
    </message>
    <message>
      <source>Best weights</source>
      <translation>最佳权重</translation>
    </message>
    <message>
      <source>Details</source>
      <translation>详细信息</translation>
    </message>
    <message>
      <source>During training, epoch {epoch} measured mAP@0.5 {during}; best.pt holds that epoch's weights, saved by yolov5 in 16-bit precision and validated once more at the end, which gives {at_end}.</source>
      <translation>训练期间第 {epoch} 轮测得 mAP@0.5 {during}；best.pt 保存的就是这一轮的权重，yolov5 以 16 位精度保存它，并在最后再验证一次，得到 {at_end}。</translation>
    </message>
    <message>
      <source>Epochs completed</source>
      <translation>已完成轮数</translation>
    </message>
    <message>
      <source>Evaluate</source>
      <translation>评估</translation>
    </message>
    <message>
      <source>Last weights</source>
      <translation>最后权重</translation>
    </message>
    <message>
      <source>More epochs</source>
      <translation>更多轮数</translation>
    </message>
    <message>
      <source>Open folder</source>
      <translation>打开文件夹</translation>
    </message>
    <message>
      <source>Open run folder</source>
      <translation>打开训练文件夹</translation>
    </message>
    <message>
      <source>Open weights folder</source>
      <translation>打开权重文件夹</translation>
    </message>
    <message>
      <source>Per-class metrics, the confusion matrix and what to change, from yolov5's validation of the run's best weights</source>
      <translation>按类别的指标、混淆矩阵和改进建议，来自 yolov5 对该训练最佳权重的验证</translation>
    </message>
    <message>
      <source>Resume from last checkpoint</source>
      <translation>从最后的检查点继续</translation>
    </message>
    <message>
      <source>Run {name} finished all its epochs.</source>
      <translation>训练 {name} 已完成全部轮次。</translation>
    </message>
    <message>
      <source>Run {name} stopped at batch {done}/{batches} of epoch {epoch}; the checkpoint holds the weights reached there. Resume redoes epoch {epoch} from its first batch, starting from those weights.</source>
      <translation>训练 {name} 停在第 {epoch} 轮的第 {done}/{batches} 批；检查点保存了此时的权重。继续训练会从第一个批次重做第 {epoch} 轮，起点是这些权重。</translation>
    </message>
    <message>
      <source>Run {name} stopped; its last checkpoint is saved, so it can be resumed.</source>
      <translation>训练 {name} 已停止；最后的检查点已保存，可以继续训练。</translation>
    </message>
    <message>
      <source>Start a new run from this run's best weights, on the same dataset, for the number of epochs beside it</source>
      <translation>以这次训练的最佳权重为起点，在同一数据集上开始新的训练，轮数为旁边设定的值</translation>
    </message>
    <message>
      <source>Total time</source>
      <translation>总用时</translation>
    </message>
    <message>
      <source>Train more from best.pt</source>
      <translation>从 best.pt 继续多训练几轮</translation>
    </message>
    <message>
      <source>Training completed</source>
      <translation>训练完成</translation>
    </message>
    <message>
      <source>Training failed</source>
      <translation>训练失败</translation>
    </message>
    <message>
      <source>Training stopped</source>
      <translation>训练已停止</translation>
    </message>
    <message>
      <source>mAP@0.5 of best.pt</source>
      <translation>best.pt 的 mAP@0.5</translation>
    </message>
    <message>
      <source>mAP@0.5:0.95 of best.pt</source>
      <translation>best.pt 的 mAP@0.5:0.95</translation>
    </message>
    <message>
      <source>none yet</source>
      <translation>暂无</translation>
    </message>
    <message>
      <source>{speed} images/s ({images} images in {time})</source>
      <translation>{speed} 张/秒（{time} 内训练 {images} 张图片）</translation>
    </message>
    <message>
      <source>{speed} images/s over the whole run</source>
      <translation>整个训练平均 {speed} 张/秒</translation>
    </message>
  </context>
  <context>
    <name>RunText</name>
    <message>
      <source>Best epoch {epoch}, validated during training: mAP@0.5 {map50} · mAP@0.5:0.95 {map50_95}</source>
      <translation>最佳轮次 {epoch}（训练期间验证）：mAP@0.5 {map50} · mAP@0.5:0.95 {map50_95}</translation>
    </message>
    <message>
      <source>Best mAP: — (known after the first validation)</source>
      <translation>最佳 mAP：—（第一次验证后可知）</translation>
    </message>
    <message>
      <source>CPU</source>
      <translation>CPU</translation>
    </message>
    <message>
      <source>Checkpoint saved: {path}</source>
      <translation>检查点已保存：{path}</translation>
    </message>
    <message>
      <source>Ended</source>
      <translation>已结束</translation>
    </message>
    <message>
      <source>Epoch {epoch}/{epochs} done in {time}: mAP@0.5 {map50}, mAP@0.5:0.95 {map50_95}</source>
      <translation>第 {epoch}/{epochs} 轮用时 {time}：mAP@0.5 {map50}，mAP@0.5:0.95 {map50_95}</translation>
    </message>
    <message>
      <source>Epoch {epoch}/{epochs} · batch {batch}/{batches} · {speed} img/s on average</source>
      <translation>轮次 {epoch}/{epochs} · 批次 {batch}/{batches} · 平均 {speed} 张/秒</translation>
    </message>
    <message>
      <source>Epoch {epoch}/{epochs} · batch {batch}/{batches} · {speed} img/s · data wait {wait} % · ETA {eta}</source>
      <translation>轮次 {epoch}/{epochs} · 批次 {batch}/{batches} · {speed} 张/秒 · 数据等待 {wait} % · 剩余 {eta}</translation>
    </message>
    <message>
      <source>Error: {message}</source>
      <translation>错误：{message}</translation>
    </message>
    <message>
      <source>Error: {message} — {hint}</source>
      <translation>错误：{message} — {hint}</translation>
    </message>
    <message>
      <source>Failed: {message}</source>
      <translation>失败：{message}</translation>
    </message>
    <message>
      <source>Run ended ({status}) after {elapsed}</source>
      <translation>训练结束（{status}），用时 {elapsed}</translation>
    </message>
    <message>
      <source>Run {name} · epoch {epoch}/{epochs} · {percent} % · ETA {eta}</source>
      <translation>训练 {name} · 轮次 {epoch}/{epochs} · {percent} % · 剩余 {eta}</translation>
    </message>
    <message>
      <source>Run {name}: {stage}</source>
      <translation>训练 {name}：{stage}</translation>
    </message>
    <message>
      <source>Stage: {stage}</source>
      <translation>阶段：{stage}</translation>
    </message>
    <message>
      <source>Stage: {stage} ({detail})</source>
      <translation>阶段：{stage}（{detail}）</translation>
    </message>
    <message>
      <source>Waiting for the first epoch…</source>
      <translation>正在等待第一轮…</translation>
    </message>
    <message>
      <source>Warning: {message}</source>
      <translation>警告：{message}</translation>
    </message>
    <message>
      <source>Warning: {message} {hint}</source>
      <translation>警告：{message} {hint}</translation>
    </message>
    <message>
      <source>Worker ready: PyTorch {torch}, yolov5 {yolov5}, on {devices}</source>
      <translation>工作进程已就绪：PyTorch {torch}，yolov5 {yolov5}，设备 {devices}</translation>
    </message>
  </context>
  <context>
    <name>RunViewer</name>
    <message>
      <source>Back to run {training}</source>
      <translation>返回训练 {training}</translation>
    </message>
    <message>
      <source>Run {name}</source>
      <translation>训练 {name}</translation>
    </message>
    <message>
      <source>Run {name} — YOLO Studio</source>
      <translation>训练 {name} — YOLO Studio</translation>
    </message>
    <message>
      <source>Viewing run {name}. Run {training} keeps training on the Train page.</source>
      <translation>正在查看训练 {name}。训练 {training} 仍在训练页面上进行。</translation>
    </message>
  </context>
  <context>
    <name>RunsOperations</name>
    <message>
      <source>Comparing the runs</source>
      <translation>比较各次训练</translation>
    </message>
    <message>
      <source>Fetching {run} from {name}</source>
      <translation>从 {name} 取回 {run}</translation>
    </message>
    <message>
      <source>Listing the runs on the machines</source>
      <translation>列出机器上的训练</translation>
    </message>
    <message>
      <source>Moving runs to the trash</source>
      <translation>正在把训练移到回收站</translation>
    </message>
    <message>
      <source>Reading the runs' events</source>
      <translation>读取各次训练的事件</translation>
    </message>
    <message>
      <source>Renaming run {name}</source>
      <translation>正在重命名训练 {name}</translation>
    </message>
  </context>
  <context>
    <name>RunsOverlayDialog</name>
    <message>
      <source>Box loss (yolov5 units)</source>
      <translation>框损失（yolov5 单位）</translation>
    </message>
    <message>
      <source>Box loss per epoch: train ━━, val ╍╍</source>
      <translation>每轮的框损失：训练 ━━，验证 ╍╍</translation>
    </message>
    <message>
      <source>Compare runs</source>
      <translation>比较训练</translation>
    </message>
    <message>
      <source>Could not read the runs: {reason}</source>
      <translation>无法读取训练：{reason}</translation>
    </message>
    <message>
      <source>Epoch</source>
      <translation>轮次</translation>
    </message>
    <message>
      <source>No finished epoch yet in: {names}</source>
      <translation>以下训练还没有完成的轮次：{names}</translation>
    </message>
    <message>
      <source>Reading the runs' events…</source>
      <translation>正在读取训练的事件…</translation>
    </message>
    <message>
      <source>mAP@0.5 (0–1)</source>
      <translation>mAP@0.5（0–1）</translation>
    </message>
    <message>
      <source>mAP@0.5 per epoch</source>
      <translation>每轮的 mAP@0.5</translation>
    </message>
    <message>
      <source>{count} runs, per epoch.</source>
      <translation>{count} 次训练，按轮次。</translation>
    </message>
  </context>
  <context>
    <name>RunsPage</name>
    <message>
      <source>Compare</source>
      <translation>比较</translation>
    </message>
    <message>
      <source>Could not move to the trash: {reason}. Nothing was deleted permanently.</source>
      <translation>无法移到回收站：{reason}。没有永久删除任何东西。</translation>
    </message>
    <message>
      <source>Could not read the runs folder {folder}: {reason}</source>
      <translation>无法读取训练文件夹 {folder}：{reason}</translation>
    </message>
    <message>
      <source>Could not rename run {name}: {reason}</source>
      <translation>无法重命名训练 {name}：{reason}</translation>
    </message>
    <message>
      <source>Delete…</source>
      <translation>删除…</translation>
    </message>
    <message>
      <source>Evaluate</source>
      <translation>评估</translation>
    </message>
    <message>
      <source>Every training run in this workspace, with its results and how efficiently it used the machine. Open one to replay it; select several to compare their curves.</source>
      <translation>这个工作区中的每次训练，包括其结果和对机器的利用效率。打开一个可以回放它；选择多个可以比较它们的曲线。</translation>
    </message>
    <message>
      <source>Move runs to the trash?</source>
      <translation>把训练移到回收站吗？</translation>
    </message>
    <message>
      <source>Move the selected runs to the trash (Delete)</source>
      <translation>把所选训练移到回收站（Delete）</translation>
    </message>
    <message>
      <source>Move these runs (weights, results and events) to the trash?

{names}

They can be restored from the trash.</source>
      <translation>把这些训练（权重、结果和事件）移到回收站吗？

{names}

它们可以从回收站恢复。</translation>
    </message>
    <message>
      <source>Moved to the trash: {names}.</source>
      <translation>已移到回收站：{names}。</translation>
    </message>
    <message>
      <source>New name for run {name}:</source>
      <translation>训练 {name} 的新名称：</translation>
    </message>
    <message>
      <source>No runs yet in {folder}.

Start one on the Train page (Ctrl+4) — the demo dataset trains in a few minutes on a CPU. Every run then appears here with its results, its speed in images/s and how busy it kept the GPU.</source>
      <translation>{folder} 中还没有训练。

在训练页面（Ctrl+4）开始一次——演示数据集在 CPU 上几分钟就能训练完。之后每次训练都会出现在这里，附带结果、以张/秒计的速度以及 GPU 的繁忙程度。</translation>
    </message>
    <message>
      <source>Not deleted: {names} is training. Stop it first.</source>
      <translation>未删除：{names} 正在训练。请先停止它。</translation>
    </message>
    <message>
      <source>Not moved to the trash: {names} (the system's trash refused, or the run is training now); nothing was deleted permanently. Delete the folder yourself if you are sure: {paths}</source>
      <translation>未移到回收站：{names}（系统回收站拒绝了，或该训练正在进行）；没有永久删除任何东西。如果确定，请自己删除文件夹：{paths}</translation>
    </message>
    <message>
      <source>Open</source>
      <translation>打开</translation>
    </message>
    <message>
      <source>Open folder</source>
      <translation>打开文件夹</translation>
    </message>
    <message>
      <source>Per-class metrics, the confusion matrix and what to change, from yolov5's validation of the run's best weights</source>
      <translation>按类别的指标、混淆矩阵和改进建议，来自 yolov5 对该训练最佳权重的验证</translation>
    </message>
    <message>
      <source>Read the runs folder again (F5)</source>
      <translation>重新读取训练文件夹（F5）</translation>
    </message>
    <message>
      <source>Reading the runs folder…</source>
      <translation>正在读取训练文件夹…</translation>
    </message>
    <message>
      <source>Refresh</source>
      <translation>刷新</translation>
    </message>
    <message>
      <source>Rename run</source>
      <translation>重命名训练</translation>
    </message>
    <message>
      <source>Rename the run's folder (F2)</source>
      <translation>重命名训练的文件夹（F2）</translation>
    </message>
    <message>
      <source>Renamed run {old} to {new}.</source>
      <translation>已把训练 {old} 重命名为 {new}。</translation>
    </message>
    <message>
      <source>Rename…</source>
      <translation>重命名…</translation>
    </message>
    <message>
      <source>Replay the run on the Train page, or follow it while it trains (Enter)</source>
      <translation>在训练页面回放这次训练，或在它训练时跟踪（Enter）</translation>
    </message>
    <message>
      <source>Run {name} is training: stop it before renaming it.</source>
      <translation>训练 {name} 正在进行：请先停止它再重命名。</translation>
    </message>
    <message>
      <source>Runs</source>
      <translation>训练记录</translation>
    </message>
    <message>
      <source>What differs between the selected runs, their mAP (per class when evaluated), speed and curves</source>
      <translation>所选训练之间的差异、它们的 mAP（已评估时按类别）、速度和曲线</translation>
    </message>
    <message>
      <source>best weights {path}</source>
      <translation>最佳权重 {path}</translation>
    </message>
    <message>
      <source>folder {path}</source>
      <translation>文件夹 {path}</translation>
    </message>
    <message>
      <source>why it failed: {message}</source>
      <translation>失败原因：{message}</translation>
    </message>
    <message>
      <source>{count} runs selected.</source>
      <translation>已选择 {count} 次训练。</translation>
    </message>
    <message>
      <source>{name}: {status}</source>
      <translation>{name}：{status}</translation>
    </message>
  </context>
  <context>
    <name>RunsTableModel</name>
    <message>
      <source>Best mAP@0.5</source>
      <translation>最佳 mAP@0.5</translation>
    </message>
    <message>
      <source>Best mAP@0.5:0.95</source>
      <translation>最佳 mAP@0.5:0.95</translation>
    </message>
    <message>
      <source>Data wait</source>
      <translation>数据等待</translation>
    </message>
    <message>
      <source>Dataset</source>
      <translation>数据集</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>时长</translation>
    </message>
    <message>
      <source>Epochs</source>
      <translation>轮数</translation>
    </message>
    <message>
      <source>GPU busy</source>
      <translation>GPU 繁忙</translation>
    </message>
    <message>
      <source>Images/s</source>
      <translation>张/秒</translation>
    </message>
    <message>
      <source>Mean GPU utilisation while training (NVML)</source>
      <translation>训练期间的平均 GPU 利用率（NVML）</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>Processes</source>
      <translation>进程数</translation>
    </message>
    <message>
      <source>Share of step time training waited for the data loader</source>
      <translation>训练等待数据加载的时间占每步时间的比例</translation>
    </message>
    <message>
      <source>Started</source>
      <translation>开始时间</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Training processes per machine × machines (DDP ranks); 1 is one worker process</source>
      <translation>每台机器的训练进程数 × 机器数（DDP 进程）；1 表示单个训练进程</translation>
    </message>
    <message>
      <source>Training throughput over the whole run (validation excluded)</source>
      <translation>整个训练的吞吐量（不含验证）</translation>
    </message>
    <message>
      <source>Wall time of every worker start, summed (h:mm:ss)</source>
      <translation>每次启动工作进程的实际用时之和（时:分:秒）</translation>
    </message>
    <message>
      <source>{done}/{total}</source>
      <translation>{done}/{total}</translation>
    </message>
    <message>
      <source>{per_node} × {nodes} machines</source>
      <translation>{per_node} × {nodes} 台机器</translation>
    </message>
    <message>
      <source>{value} %</source>
      <translation>{value} %</translation>
    </message>
  </context>
  <context>
    <name>SettingsDialog</name>
    <message>
      <source>&amp;Closing while a run trains:</source>
      <translation>训练时关闭窗口(&amp;C)：</translation>
    </message>
    <message>
      <source>&amp;Language:</source>
      <translation>语言(&amp;L)：</translation>
    </message>
    <message>
      <source>&amp;Theme:</source>
      <translation>主题(&amp;T)：</translation>
    </message>
    <message>
      <source>&amp;Workspace folder:</source>
      <translation>工作区文件夹(&amp;W)：</translation>
    </message>
    <message>
      <source>Ask every time</source>
      <translation>每次询问</translation>
    </message>
    <message>
      <source>Automatic: the first GPU, else the CPU</source>
      <translation>自动：第一块 GPU，没有则用 CPU</translation>
    </message>
    <message>
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <source>CPU</source>
      <translation>CPU</translation>
    </message>
    <message>
      <source>Choose the workspace folder</source>
      <translation>选择工作区文件夹</translation>
    </message>
    <message>
      <source>Could not save the settings: {reason}</source>
      <translation>无法保存设置：{reason}</translation>
    </message>
    <message>
      <source>Dark</source>
      <translation>深色</translation>
    </message>
    <message>
      <source>Default &amp;device:</source>
      <translation>默认设备(&amp;D)：</translation>
    </message>
    <message>
      <source>Empty: the app's data folder, {path}</source>
      <translation>留空：使用应用的数据文件夹 {path}</translation>
    </message>
    <message>
      <source>Follow the system</source>
      <translation>跟随系统</translation>
    </message>
    <message>
      <source>GPU 0</source>
      <translation>GPU 0</translation>
    </message>
    <message>
      <source>GPUs 0 and 1</source>
      <translation>GPU 0 和 1</translation>
    </message>
    <message>
      <source>Keep it training in the background</source>
      <translation>让它在后台继续训练</translation>
    </message>
    <message>
      <source>Light</source>
      <translation>浅色</translation>
    </message>
    <message>
      <source>Restart YOLO Studio?</source>
      <translation>重启 YOLO Studio 吗？</translation>
    </message>
    <message>
      <source>Settings</source>
      <translation>设置</translation>
    </message>
    <message>
      <source>Stop the run (a checkpoint is saved)</source>
      <translation>停止训练（会保存检查点）</translation>
    </message>
    <message>
      <source>System language</source>
      <translation>系统语言</translation>
    </message>
    <message>
      <source>The app's data folder (default)</source>
      <translation>应用的数据文件夹（默认）</translation>
    </message>
    <message>
      <source>The device a new run starts with on the Train form: empty for automatic, 'cpu', a GPU index such as '0', or several such as '0,1'.</source>
      <translation>训练表单中新训练使用的设备：留空为自动，'cpu'，GPU 编号如 '0'，或多块如 '0,1'。</translation>
    </message>
    <message>
      <source>The new language and workspace apply when YOLO Studio starts again.</source>
      <translation>新的语言和工作区将在 YOLO Studio 重新启动后生效。</translation>
    </message>
    <message>
      <source>The new language applies when YOLO Studio starts again.</source>
      <translation>新的语言将在 YOLO Studio 重新启动后生效。</translation>
    </message>
    <message>
      <source>The new workspace applies when YOLO Studio starts again.</source>
      <translation>新的工作区将在 YOLO Studio 重新启动后生效。</translation>
    </message>
    <message>
      <source>Workspace in use now: {path} — {origin}.</source>
      <translation>当前使用的工作区：{path} — {origin}。</translation>
    </message>
    <message>
      <source>YOLOSTUDIO_WORKSPACE is set, so it decides the workspace, not this setting.</source>
      <translation>已设置 YOLOSTUDIO_WORKSPACE，所以工作区由它决定，而不是这项设置。</translation>
    </message>
    <message>
      <source>from YOLOSTUDIO_WORKSPACE; this field is used when it is not set</source>
      <translation>来自 YOLOSTUDIO_WORKSPACE；未设置该变量时才使用此处的设置</translation>
    </message>
    <message>
      <source>from the command line (--workspace); this field is used when the app starts without it</source>
      <translation>来自命令行（--workspace）；不带该参数启动时才使用此处的设置</translation>
    </message>
    <message>
      <source>the default</source>
      <translation>默认位置</translation>
    </message>
    <message>
      <source>this setting</source>
      <translation>此设置</translation>
    </message>
    <message>
      <source>{what} OK offers to restart now.</source>
      <translation>{what}点击“确定”后可选择立即重启。</translation>
    </message>
    <message>
      <source>{what} Restart now? (A run that is training is asked about first, as on any close.)</source>
      <translation>{what}现在重启吗？（如有正在训练的任务，会像平常关闭时一样先询问。）</translation>
    </message>
  </context>
  <context>
    <name>SettingsOperations</name>
    <message>
      <source>Reading the settings</source>
      <translation>读取设置</translation>
    </message>
    <message>
      <source>Saving the settings</source>
      <translation>保存设置</translation>
    </message>
  </context>
  <context>
    <name>SeveralMachinesSection</name>
    <message>
      <source># machine {rank}
{command}</source>
      <translation># 第 {rank} 台机器
{command}</translation>
    </message>
    <message>
      <source>A batch script for a Slurm cluster: one task per machine (srun), each running this training with its own machine rank.</source>
      <translation>用于 Slurm 集群的批处理脚本：每台机器一个任务（srun），各自以自己的机器编号运行这次训练。</translation>
    </message>
    <message>
      <source>Copy commands</source>
      <translation>复制命令</translation>
    </message>
    <message>
      <source>On the other machines, run:</source>
      <translation>在其他机器上运行：</translation>
    </message>
    <message>
      <source>One machine: set Machines to 2 or more to get the command for each of the others.</source>
      <translation>单台机器：把“机器数”设为 2 或更多，即可得到其他每台机器要运行的命令。</translation>
    </message>
    <message>
      <source>R&amp;un on several machines</source>
      <translation>在多台机器上运行(&amp;U)</translation>
    </message>
    <message>
      <source>Save Slurm script</source>
      <translation>保存 Slurm 脚本</translation>
    </message>
    <message>
      <source>Save Slurm script…</source>
      <translation>保存 Slurm 脚本…</translation>
    </message>
    <message>
      <source>Several machines meet through PyTorch's rendezvous, which has no password and no encryption: anyone who can reach its port can join the run or run code on these machines. Use it only on a network you trust (a private cluster network or a VPN), never one open to others. The run id below is random, but it is not a password.</source>
      <translation>多台机器通过 PyTorch 的汇合机制（rendezvous）相互连接，它没有密码，也不加密：任何能访问其端口的人都可以加入训练，或在这些机器上运行代码。只在你信任的网络上使用（私有集群网络或 VPN），绝不要在对他人开放的网络上使用。下面的运行 ID 是随机的，但它不是密码。</translation>
    </message>
    <message>
      <source>Slurm batch scripts (*.sbatch *.sh)</source>
      <translation>Slurm 批处理脚本 (*.sbatch *.sh)</translation>
    </message>
    <message>
      <source>Train one run on several GPUs or machines with PyTorch's DDP: this machine starts its share, the others run the command shown here.</source>
      <translation>用 PyTorch 的 DDP 在多块 GPU 或多台机器上训练同一个任务：本机启动自己的部分，其他机器运行这里显示的命令。</translation>
    </message>
  </context>
  <context>
    <name>ShellOperations</name>
    <message>
      <source>Listing the runs</source>
      <translation>列出训练记录</translation>
    </message>
    <message>
      <source>Reading the last environment check</source>
      <translation>读取上次的环境检查</translation>
    </message>
    <message>
      <source>Reading the settings</source>
      <translation>读取设置</translation>
    </message>
    <message>
      <source>Reading this machine's GPUs</source>
      <translation>正在读取这台机器的 GPU</translation>
    </message>
    <message>
      <source>Saving the settings</source>
      <translation>保存设置</translation>
    </message>
  </context>
  <context>
    <name>StartHint</name>
    <message>
      <source>Download it from the official YOLOv5 release (asks first)</source>
      <translation>从官方 YOLOv5 发布页面下载（会先询问）</translation>
    </message>
    <message>
      <source>Fine-tune from {file}</source>
      <translation>从 {file} 微调</translation>
    </message>
    <message>
      <source>Get {file} ({size})…</source>
      <translation>获取 {file}（{size}）…</translation>
    </message>
    <message>
      <source>Start from random weights instead (needs many more epochs)</source>
      <translation>改为从随机权重开始（需要多得多的轮数）</translation>
    </message>
    <message>
      <source>Starting from {weights} (Initial weights, under Advanced options).</source>
      <translation>从 {weights} 开始（初始权重，在高级选项中）。</translation>
    </message>
    <message>
      <source>The pretrained checkpoints: get, import or remove them</source>
      <translation>预训练检查点：获取、导入或删除</translation>
    </message>
    <message>
      <source>Train from scratch</source>
      <translation>从头训练</translation>
    </message>
    <message>
      <source>Training from scratch, as you chose: it needs many more epochs than fine-tuning from {file}, which is on this machine.</source>
      <translation>按你的选择从头训练：它比从本机已有的 {file} 微调需要多得多的轮数。</translation>
    </message>
    <message>
      <source>Weights…</source>
      <translation>权重…</translation>
    </message>
  </context>
  <context>
    <name>SummaryLine</name>
    <message>
      <source>&lt;b&gt;{level}:&lt;/b&gt; {text}</source>
      <translation>&lt;b&gt;{level}：&lt;/b&gt;{text}</translation>
    </message>
  </context>
  <context>
    <name>SystemPlots</name>
    <message>
      <source>%</source>
      <translation>%</translation>
    </message>
    <message>
      <source>(NVML unavailable)</source>
      <translation>（NVML 不可用）</translation>
    </message>
    <message>
      <source>(training runs on the CPU)</source>
      <translation>（训练在 CPU 上运行）</translation>
    </message>
    <message>
      <source>CPU {cpu}</source>
      <translation>CPU {cpu}</translation>
    </message>
    <message>
      <source>Disk read {rate} MB/s</source>
      <translation>磁盘读取 {rate} MB/s</translation>
    </message>
    <message>
      <source>GPU waited for data {share} of the time</source>
      <translation>GPU 有 {share} 的时间在等待数据</translation>
    </message>
    <message>
      <source>GPU {index} {util}</source>
      <translation>GPU {index} {util}</translation>
    </message>
    <message>
      <source>GPU: no readings</source>
      <translation>GPU：没有读数</translation>
    </message>
    <message>
      <source>GPU: none used</source>
      <translation>GPU：未使用</translation>
    </message>
    <message>
      <source>MB/s</source>
      <translation>MB/s</translation>
    </message>
    <message>
      <source>RAM {used}/{total} GB</source>
      <translation>内存 {used}/{total} GB</translation>
    </message>
    <message>
      <source>The model (on the CPU) waited for data {share} of the time</source>
      <translation>模型（在 CPU 上）有 {share} 的时间在等待数据</translation>
    </message>
    <message>
      <source>Throughput {rate} images/s</source>
      <translation>吞吐量 {rate} 张/秒</translation>
    </message>
    <message>
      <source>Training waited for data {share} of the time</source>
      <translation>训练有 {share} 的时间在等待数据</translation>
    </message>
    <message>
      <source>Waiting for data: not measured yet</source>
      <translation>等待数据的时间：尚未测得</translation>
    </message>
    <message>
      <source>images/s</source>
      <translation>张/秒</translation>
    </message>
    <message>
      <source>memory {used}/{total} GB</source>
      <translation>显存 {used}/{total} GB</translation>
    </message>
    <message>
      <source>minutes</source>
      <translation>分钟</translation>
    </message>
    <message>
      <source>training {proc}</source>
      <translation>训练 {proc}</translation>
    </message>
  </context>
  <context>
    <name>TrainForm</name>
    <message>
      <source>&amp;Advanced options</source>
      <translation>高级选项(&amp;A)</translation>
    </message>
    <message>
      <source>A small synthetic dataset (circles, squares, triangles) that trains in minutes on a CPU; made on this machine, nothing is downloaded.</source>
      <translation>一个小型合成数据集（圆形、方形、三角形），在 CPU 上几分钟就能训练完；在本机生成，无需下载。</translation>
    </message>
    <message>
      <source>Auto (first GPU, else CPU)</source>
      <translation>自动（第一块 GPU，没有则用 CPU）</translation>
    </message>
    <message>
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <source>CPU</source>
      <translation>CPU</translation>
    </message>
    <message>
      <source>GPU {index}: {name}</source>
      <translation>GPU {index}：{name}</translation>
    </message>
    <message>
      <source>GPUs {gpus} (one process per GPU, DDP)</source>
      <translation>GPU {gpus}（每块 GPU 一个进程，DDP）</translation>
    </message>
    <message>
      <source>Optimizer, hyperparameters, early stopping, augmentation and checkpoint options</source>
      <translation>优化器、超参数、提前停止、数据增强和检查点选项</translation>
    </message>
    <message>
      <source>Preparing the demo dataset… %v/%m images</source>
      <translation>正在准备演示数据集… %v/%m 张图片</translation>
    </message>
    <message>
      <source>Set for the demo dataset, which trains in minutes at this size</source>
      <translation>为演示数据集设定，在这个尺寸下几分钟就能训练完</translation>
    </message>
    <message>
      <source>Use demo dataset</source>
      <translation>使用演示数据集</translation>
    </message>
    <message>
      <source>yolov5's default for your own dataset</source>
      <translation>yolov5 对你自己的数据集的默认值</translation>
    </message>
    <message>
      <source>{why} (was {before}); change it freely.</source>
      <translation>{why}（原为 {before}）；可以随意修改。</translation>
    </message>
  </context>
  <context>
    <name>TrainOperations</name>
    <message>
      <source>Checking the prepared copy of {source}</source>
      <translation>正在检查 {source} 的预处理副本</translation>
    </message>
    <message>
      <source>Reading run {name}</source>
      <translation>正在读取训练 {name}</translation>
    </message>
    <message>
      <source>Reading the machines</source>
      <translation>正在读取机器列表</translation>
    </message>
    <message>
      <source>Reading what {name} has</source>
      <translation>正在读取 {name} 的配置</translation>
    </message>
    <message>
      <source>Starting the run on {name}</source>
      <translation>正在 {name} 上启动训练</translation>
    </message>
  </context>
  <context>
    <name>TrainOptionsPanel</name>
    <message>
      <source>'Start anyway' was cleared: it was ticked for {old}, and the dataset is now {new}. Tick it again once you have read the new dataset's problems.</source>
      <translation>已取消勾选“仍然开始”：它是为 {old} 勾选的，而现在的数据集是 {new}。看过新数据集的问题后，可再次勾选。</translation>
    </message>
    <message>
      <source>Checking the dataset</source>
      <translation>正在检查数据集</translation>
    </message>
    <message>
      <source>Checking the dataset's images and labels before training…</source>
      <translation>训练前正在检查数据集的图片和标签…</translation>
    </message>
    <message>
      <source>Copied the yolov5 command to the clipboard.</source>
      <translation>已把 yolov5 命令复制到剪贴板。</translation>
    </message>
    <message>
      <source>Copy the equivalent plain `yolov5 train …` command line</source>
      <translation>复制等效的普通 `yolov5 train …` 命令行</translation>
    </message>
    <message>
      <source>Copy yolov5 command</source>
      <translation>复制 yolov5 命令</translation>
    </message>
    <message>
      <source>Could not prepare the demo dataset: {reason}. Check that the workspace folder {path} is writable.</source>
      <translation>无法准备演示数据集：{reason}。请检查工作区文件夹 {path} 是否可写。</translation>
    </message>
    <message>
      <source>Fix them on the Dataset page, or tick 'Start anyway' to train without them.</source>
      <translation>请在数据集页面修复它们，或勾选“仍然开始”跳过它们进行训练。</translation>
    </message>
    <message>
      <source>Options</source>
      <translation>选项</translation>
    </message>
    <message>
      <source>Preparing the demo dataset…</source>
      <translation>正在准备演示数据集…</translation>
    </message>
    <message>
      <source>Reading this machine's GPUs</source>
      <translation>正在读取这台机器的 GPU</translation>
    </message>
    <message>
      <source>Run {name} is training with these options.</source>
      <translation>训练 {name} 正在用这些选项训练。</translation>
    </message>
    <message>
      <source>Set for the next run: {fields}.</source>
      <translation>已为下次训练设置：{fields}。</translation>
    </message>
    <message>
      <source>Show them on the Dataset page</source>
      <translation>在数据集页面查看</translation>
    </message>
    <message>
      <source>Start anyway: train without the images yolov5 cannot read</source>
      <translation>仍然开始：跳过 yolov5 读不了的图片进行训练</translation>
    </message>
    <message>
      <source>The dataset check failed: {reason}</source>
      <translation>数据集检查失败：{reason}</translation>
    </message>
    <message>
      <source>The form already has these settings.</source>
      <translation>表单中已经是这些设置。</translation>
    </message>
    <message>
      <source>yolov5 skips these images with a warning and trains on the rest; fix them on the Dataset page to train on all of them.</source>
      <translation>yolov5 会跳过这些图片并给出警告，用其余图片训练；在数据集页面修复后就能用全部图片训练。</translation>
    </message>
    <message>
      <source>{field} {value}</source>
      <translation>{field} {value}</translation>
    </message>
    <message>
      <source>{fixes} Then Start.</source>
      <translation>{fixes}然后点“开始”。</translation>
    </message>
    <message>
      <source>{stop} {skip}</source>
      <translation>{stop}{skip}</translation>
    </message>
    <message>
      <source>{where}: {message}</source>
      <translation>{where}：{message}</translation>
    </message>
  </context>
  <context>
    <name>TrainPage</name>
    <message>
      <source>A run is active: stop it, or wait for it to finish, first.</source>
      <translation>有训练正在进行：请先停止它或等它结束。</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Checking the dataset before training…</source>
      <translation>训练前正在检查数据集…</translation>
    </message>
    <message>
      <source>End the training process at once (asks first)</source>
      <translation>立即结束训练进程（会先询问）</translation>
    </message>
    <message>
      <source>Finish the current batch, save a checkpoint, then stop</source>
      <translation>完成当前批次，保存检查点，然后停止</translation>
    </message>
    <message>
      <source>Fix the problems listed under the options first.</source>
      <translation>请先修复选项下方列出的问题。</translation>
    </message>
    <message>
      <source>GPU, CPU, memory, disk and data-wait figures appear here while a run trains.</source>
      <translation>训练进行时，这里会显示 GPU、CPU、内存、磁盘和数据等待的数据。</translation>
    </message>
    <message>
      <source>Kill</source>
      <translation>强制结束</translation>
    </message>
    <message>
      <source>Last run {name}: {state}</source>
      <translation>上次训练 {name}：{state}</translation>
    </message>
    <message>
      <source>Losses, metrics and the learning rate are plotted here once a run starts or is opened.</source>
      <translation>训练开始或打开一次训练后，这里会绘制损失、指标和学习率曲线。</translation>
    </message>
    <message>
      <source>Machine while training</source>
      <translation>训练时的机器状态</translation>
    </message>
    <message>
      <source>Nothing to resume: no stopped or failed run with a checkpoint.</source>
      <translation>没有可继续的训练：没有带检查点的已停止或失败的训练。</translation>
    </message>
    <message>
      <source>Options for the next run</source>
      <translation>下次训练的选项</translation>
    </message>
    <message>
      <source>Options of run {name} (read-only while it trains)</source>
      <translation>训练 {name} 的选项（训练期间只读）</translation>
    </message>
    <message>
      <source>Progress</source>
      <translation>进度</translation>
    </message>
    <message>
      <source>Resume</source>
      <translation>继续训练</translation>
    </message>
    <message>
      <source>Resume run {name} from its last checkpoint: an epoch interrupted by a stop is redone from its first batch, starting from the weights reached</source>
      <translation>从最后的检查点继续训练 {name}：被停止打断的那一轮会从第一个批次重做，起点是已达到的权重</translation>
    </message>
    <message>
      <source>Run {name}</source>
      <translation>训练 {name}</translation>
    </message>
    <message>
      <source>Send the dataset to {name} and start training there, detached: it keeps going if the link drops (Ctrl+Enter)</source>
      <translation>把数据集发送到 {name} 并在那里以分离方式开始训练：连接断开时训练继续进行（Ctrl+Enter）</translation>
    </message>
    <message>
      <source>Start</source>
      <translation>开始</translation>
    </message>
    <message>
      <source>Start training with these options (Ctrl+Enter)</source>
      <translation>用这些选项开始训练（Ctrl+Enter）</translation>
    </message>
    <message>
      <source>Stop</source>
      <translation>停止</translation>
    </message>
    <message>
      <source>Stop sending the dataset; nothing is started there</source>
      <translation>停止发送数据集；那里不会启动任何训练</translation>
    </message>
    <message>
      <source>Stopping…</source>
      <translation>正在停止…</translation>
    </message>
    <message>
      <source>This computer</source>
      <translation>本机</translation>
    </message>
    <message>
      <source>Train</source>
      <translation>训练</translation>
    </message>
    <message>
      <source>Train a YOLOv5 model on your dataset, watch it learn, and find its weights when it is done.</source>
      <translation>在你的数据集上训练 YOLOv5 模型，观察它的学习过程，完成后找到它的权重。</translation>
    </message>
    <message>
      <source>Train on</source>
      <translation>训练位置</translation>
    </message>
    <message>
      <source>Where the run trains: this computer, or a machine added on the Machines page (the dataset is sent there; the run keeps going if the link drops)</source>
      <translation>在哪里训练：本机，或在“机器”页添加的机器（数据集会发送过去；连接断开时训练继续进行）</translation>
    </message>
    <message>
      <source>{name} (SSH: {dest})</source>
      <translation>{name}（SSH：{dest}）</translation>
    </message>
    <message>
      <source>{name} has not been checked yet: these options are checked on this computer's GPUs. Check it on the Machines page to check them on its own.</source>
      <translation>{name} 还没有检查过：这些选项是按本机的 GPU 检查的。在“机器”页检查它之后，就会按它自己的 GPU 检查。</translation>
    </message>
    <message>
      <source>— last lines of worker.log —</source>
      <translation>— worker.log 的最后几行 —</translation>
    </message>
  </context>
  <context>
    <name>TrainRunControl</name>
    <message>
      <source>A run is training: retrain when it ends.</source>
      <translation>有训练正在进行：请在它结束后再重新训练。</translation>
    </message>
    <message>
      <source>A run is training: the wizard's settings can be used when it ends.</source>
      <translation>有一个训练正在进行：结束后才能使用向导的设置。</translation>
    </message>
    <message>
      <source>Cannot resume run {name}: {reason}</source>
      <translation>无法继续训练 {name}：{reason}</translation>
    </message>
    <message>
      <source>Changed since the wizard: {changes}. Its predicted time was for its own settings.</source>
      <translation>向导之后已更改：{changes}。它预测的时间是按它自己的设置算的。</translation>
    </message>
    <message>
      <source>Checking the copy {done}/{total}…</source>
      <translation>正在检查副本 {done}/{total}…</translation>
    </message>
    <message>
      <source>Could not create the run folder: {reason}. Check that the workspace {path} is writable.</source>
      <translation>无法创建训练文件夹：{reason}。请检查工作区 {path} 是否可写。</translation>
    </message>
    <message>
      <source>Fine-tuning {name} from its best.pt on the dataset as it is now.</source>
      <translation>正在从 {name} 的 best.pt 出发，在数据集当前状态上微调。</translation>
    </message>
    <message>
      <source>Fix the problems listed under the options first.</source>
      <translation>请先修复选项下方列出的问题。</translation>
    </message>
    <message>
      <source>Re-attached to run {name}, started {started} — it kept training while YOLO Studio was closed.</source>
      <translation>已重新连接到训练 {name}（开始于 {started}）——YOLO Studio 关闭期间它一直在训练。</translation>
    </message>
    <message>
      <source>Reading run {name}</source>
      <translation>正在读取训练 {name}</translation>
    </message>
    <message>
      <source>Replaying run {name} from its events file.</source>
      <translation>正在从事件文件回放训练 {name}。</translation>
    </message>
    <message>
      <source>Run {name} has no best.pt to continue from.</source>
      <translation>训练 {name} 没有可以接着训练的 best.pt。</translation>
    </message>
    <message>
      <source>Run {name} is still training: stop it, or wait for it to finish, before starting another.</source>
      <translation>训练 {name} 仍在进行：请先停止它或等它结束，再开始新的训练。</translation>
    </message>
    <message>
      <source>Run {name}'s settings</source>
      <translation>训练 {name} 的设置</translation>
    </message>
    <message>
      <source>Run {run} on {name} ended. Its weights stay there until fetched: yolostudio fetch {run} --machine {name}</source>
      <translation>{name} 上的训练 {run} 已结束。其权重留在那里，直到取回：yolostudio fetch {run} --machine {name}</translation>
    </message>
    <message>
      <source>Run {run} trains on {name} (its dataset there: {folder}). It keeps training if the link or this window goes; yolostudio attach {run} --machine {name} follows it again.</source>
      <translation>训练 {run} 正在 {name} 上进行（那里的数据集：{folder}）。连接断开或关闭本窗口后它会继续训练；yolostudio attach {run} --machine {name} 可重新跟踪它。</translation>
    </message>
    <message>
      <source>Sending cancelled; nothing was started. The files sent whole are there, verified: the next Start sends only the rest.</source>
      <translation>已取消发送，未启动任何训练。已完整发送的文件留在那里并已校验：下次开始只发送其余文件。</translation>
    </message>
    <message>
      <source>The dataset is being checked: Start is possible as soon as it passes.</source>
      <translation>正在检查数据集：通过后即可开始。</translation>
    </message>
    <message>
      <source>The link to {name} is back: reading resumed from byte {offset}, no event missed or repeated.</source>
      <translation>与 {name} 的连接已恢复：从第 {offset} 字节继续读取，没有遗漏或重复的事件。</translation>
    </message>
    <message>
      <source>The stop did not reach {name}: {reason}</source>
      <translation>停止请求未送达 {name}：{reason}</translation>
    </message>
    <message>
      <source>The wizard's settings</source>
      <translation>向导的设置</translation>
    </message>
    <message>
      <source>Training did not start: the prepared copy of {source} cannot be brought up to date ({reason}). Fix the dataset on the Dataset page, or choose the original data.yaml as the dataset.</source>
      <translation>训练未开始：无法更新 {source} 的预处理副本（{reason}）。请在数据集页面修复数据集，或选择原始 data.yaml 作为数据集。</translation>
    </message>
    <message>
      <source>{field} {now} (the wizard set {was})</source>
      <translation>{field} {now}（向导设为 {was}）</translation>
    </message>
  </context>
  <context>
    <name>TrainingPlots</name>
    <message>
      <source>Epoch</source>
      <translation>轮次</translation>
    </message>
    <message>
      <source>Learning rate</source>
      <translation>学习率</translation>
    </message>
    <message>
      <source>Learning rate per epoch</source>
      <translation>每轮的学习率</translation>
    </message>
    <message>
      <source>Loss (yolov5 units)</source>
      <translation>损失（yolov5 单位）</translation>
    </message>
    <message>
      <source>Losses per batch (train) and per epoch (val)</source>
      <translation>每批次的损失（训练）和每轮的损失（验证）</translation>
    </message>
    <message>
      <source>Score (0–1)</source>
      <translation>分数（0–1）</translation>
    </message>
    <message>
      <source>Validation metrics per epoch</source>
      <translation>每轮的验证指标</translation>
    </message>
    <message>
      <source>lr0 (biases)</source>
      <translation>lr0（偏置）</translation>
    </message>
    <message>
      <source>lr1 (weights)</source>
      <translation>lr1（权重）</translation>
    </message>
    <message>
      <source>lr2 (BN)</source>
      <translation>lr2（BN）</translation>
    </message>
    <message>
      <source>mAP@0.5</source>
      <translation>mAP@0.5</translation>
    </message>
    <message>
      <source>mAP@0.5:0.95</source>
      <translation>mAP@0.5:0.95</translation>
    </message>
    <message>
      <source>precision</source>
      <translation>精确率</translation>
    </message>
    <message>
      <source>recall</source>
      <translation>召回率</translation>
    </message>
    <message>
      <source>train {loss}</source>
      <translation>训练 {loss}</translation>
    </message>
    <message>
      <source>val {loss}</source>
      <translation>验证 {loss}</translation>
    </message>
  </context>
  <context>
    <name>TrialTable</name>
    <message>
      <source>Epochs</source>
      <translation>轮数</translation>
    </message>
    <message>
      <source>Fitness</source>
      <translation>适应度</translation>
    </message>
    <message>
      <source>Settings</source>
      <translation>设置</translation>
    </message>
    <message>
      <source>State</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Trial</source>
      <translation>试验</translation>
    </message>
    <message>
      <source>completed</source>
      <translation>已完成</translation>
    </message>
    <message>
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>running</source>
      <translation>进行中</translation>
    </message>
    <message>
      <source>stopped</source>
      <translation>已停止</translation>
    </message>
    <message>
      <source>stopped early</source>
      <translation>提前停止</translation>
    </message>
    <message>
      <source>waiting</source>
      <translation>等待中</translation>
    </message>
  </context>
  <context>
    <name>TryItView</name>
    <message>
      <source> and {n} more</source>
      <translation>，另有 {n} 张</translation>
    </message>
    <message>
      <source>, </source>
      <translation>、</translation>
    </message>
    <message>
      <source>; skipped {images}</source>
      <translation>；已跳过 {images}</translation>
    </message>
    <message>
      <source>Confidence ≥</source>
      <translation>置信度 ≥</translation>
    </message>
    <message>
      <source>Model: {path}</source>
      <translation>模型：{path}</translation>
    </message>
    <message>
      <source>No exported model chosen: press “Try it” on a report card.</source>
      <translation>未选择导出的模型：请在报告卡片上点击“试一试”。</translation>
    </message>
    <message>
      <source>Pick images…</source>
      <translation>选择图片…</translation>
    </message>
    <message>
      <source>Reading image {name}</source>
      <translation>正在读取图片 {name}</translation>
    </message>
    <message>
      <source>Run on the dataset's validation images</source>
      <translation>在数据集的验证图片上运行</translation>
    </message>
    <message>
      <source>Show only boxes at or above this confidence</source>
      <translation>只显示置信度不低于此值的框</translation>
    </message>
    <message>
      <source>Validation images</source>
      <translation>验证集图片</translation>
    </message>
    <message>
      <source>cannot be read</source>
      <translation>无法读取</translation>
    </message>
    <message>
      <source>no such file</source>
      <translation>文件不存在</translation>
    </message>
    <message>
      <source>{images}.</source>
      <translation>{images}。</translation>
    </message>
    <message>
      <source>{images}: the model found no object at all (not even at 0.001).</source>
      <translation>{images}：模型没有找到任何目标（即使阈值为 0.001）。</translation>
    </message>
    <message>
      <source>{images}; move the slider to change the confidence threshold.</source>
      <translation>{images}；拖动滑块可改变置信度阈值。</translation>
    </message>
    <message>
      <source>{images}; no box at confidence ≥ {threshold:.3f}: the highest score found is {best:.3f}. Lower the slider to see them; a model this unsure is probably undertrained.</source>
      <translation>{images}；置信度 ≥ {threshold:.3f} 时没有框：找到的最高分为 {best:.3f}。降低滑块即可看到它们；这样不确定的模型可能训练不足。</translation>
    </message>
    <message>
      <source>{name}: {reason}</source>
      <translation>{name}：{reason}</translation>
    </message>
  </context>
  <context>
    <name>TuneOperations</name>
    <message>
      <source>Checking the search</source>
      <translation>检查搜索</translation>
    </message>
    <message>
      <source>Reading the best trial's settings</source>
      <translation>读取最佳试验的设置</translation>
    </message>
    <message>
      <source>Reading the wizard document</source>
      <translation>读取向导文档</translation>
    </message>
    <message>
      <source>Reading what a search can tune</source>
      <translation>读取搜索可调整的内容</translation>
    </message>
  </context>
  <context>
    <name>TunePage</name>
    <message>
      <source> h</source>
      <translation> 小时</translation>
    </message>
    <message>
      <source>As many trials as {hours:g} h allow, {slots} side by side. A wizard document gives the count from its measured epoch time.</source>
      <translation>在 {hours:g} 小时内尽可能多地试验，{slots} 个并行。向导文档可根据其实测的每轮时间给出试验数。</translation>
    </message>
    <message>
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <source>Checking the options and the dataset…</source>
      <translation>正在检查选项和数据集…</translation>
    </message>
    <message>
      <source>Continue the stopped search: each stopped trial resumes its own run.</source>
      <translation>继续已停止的搜索：每个已停止的试验从它自己的训练继续。</translation>
    </message>
    <message>
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <source>Dataset</source>
      <translation>数据集</translation>
    </message>
    <message>
      <source>Dataset set to {path}, the one chosen on another page.</source>
      <translation>数据集已设为 {path}（在其他页面选择的数据集）。</translation>
    </message>
    <message>
      <source>Device</source>
      <translation>设备</translation>
    </message>
    <message>
      <source>Epochs per trial (at most)</source>
      <translation>每个试验的轮数（最多）</translation>
    </message>
    <message>
      <source>High</source>
      <translation>上限</translation>
    </message>
    <message>
      <source>Hyperparameter</source>
      <translation>超参数</translation>
    </message>
    <message>
      <source>Image size</source>
      <translation>图片尺寸</translation>
    </message>
    <message>
      <source>Its measured epoch time gives the number of trials the budget allows (yolostudio wizard … --save FILE).</source>
      <translation>其实测的每轮时间决定预算允许的试验数（yolostudio wizard … --save FILE）。</translation>
    </message>
    <message>
      <source>Low</source>
      <translation>下限</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Ray Tune is not installed</source>
      <translation>未安装 Ray Tune</translation>
    </message>
    <message>
      <source>Reading this machine…</source>
      <translation>正在读取本机信息…</translation>
    </message>
    <message>
      <source>Resume</source>
      <translation>继续搜索</translation>
    </message>
    <message>
      <source>Scale</source>
      <translation>刻度</translation>
    </message>
    <message>
      <source>Search</source>
      <translation>搜索</translation>
    </message>
    <message>
      <source>Search stopped: Resume continues it.</source>
      <translation>搜索已停止：“继续搜索”可接着运行。</translation>
    </message>
    <message>
      <source>Search {name} in {path}.</source>
      <translation>搜索 {name}，位于 {path}。</translation>
    </message>
    <message>
      <source>Search {status}. Best: {run} (fitness {fitness:.4f}).</source>
      <translation>搜索{status}。最佳：{run}（适应度 {fitness:.4f}）。</translation>
    </message>
    <message>
      <source>Searches for better training settings: many short trainings side by side, one per GPU (or CPU slot); the poor ones are stopped early and the next settings are proposed from the finished ones. Each trial is an ordinary run.</source>
      <translation>搜索更好的训练设置：许多短训练并行运行，每块 GPU（或每个 CPU 槽位）一个；表现差的提前停止，并根据已完成的试验提出下一组设置。每个试验都是一次普通的训练。</translation>
    </message>
    <message>
      <source>Searching: the trials run below.</source>
      <translation>正在搜索：试验在下方运行。</translation>
    </message>
    <message>
      <source>Start search</source>
      <translation>开始搜索</translation>
    </message>
    <message>
      <source>Stop</source>
      <translation>停止</translation>
    </message>
    <message>
      <source>Stopping: each running trial saves a checkpoint first…</source>
      <translation>正在停止：每个进行中的试验会先保存检查点…</translation>
    </message>
    <message>
      <source>The best settings are in {file}: yolostudio train --config {file}</source>
      <translation>最佳设置在 {file} 中：yolostudio train --config {file}</translation>
    </message>
    <message>
      <source>The best trial's settings into the Train form, for a full training.</source>
      <translation>把最佳试验的设置填入训练表单，用于完整训练。</translation>
    </message>
    <message>
      <source>The budget allows {trials} trials of {epochs} epochs, {slots} side by side (the wizard measured {epoch:.0f} s per epoch).</source>
      <translation>预算允许 {trials} 个 {epochs} 轮的试验，{slots} 个并行（向导实测每轮 {epoch:.0f} 秒）。</translation>
    </message>
    <message>
      <source>The most epochs a trial may run; poor trials stop sooner.</source>
      <translation>一个试验最多运行的轮数；表现差的试验会更早停止。</translation>
    </message>
    <message>
      <source>The search could not be planned: {reason}</source>
      <translation>无法规划搜索：{reason}</translation>
    </message>
    <message>
      <source>The search ended without a trial finishing an epoch.</source>
      <translation>搜索结束，但没有试验完成一轮。</translation>
    </message>
    <message>
      <source>The search failed: {reason}</source>
      <translation>搜索失败：{reason}</translation>
    </message>
    <message>
      <source>The search runs on Ray Tune, an optional extra (about {size} MB installed). Install it, then open this page again:</source>
      <translation>搜索基于 Ray Tune 运行，这是一个可选组件（安装后约 {size} MB）。安装后请重新打开此页面：</translation>
    </message>
    <message>
      <source>Time budget</source>
      <translation>时间预算</translation>
    </message>
    <message>
      <source>Train with these</source>
      <translation>用这些设置训练</translation>
    </message>
    <message>
      <source>Trials</source>
      <translation>试验数</translation>
    </message>
    <message>
      <source>Tune: search for better training settings</source>
      <translation>调优：搜索更好的训练设置</translation>
    </message>
    <message>
      <source>What is searched (yolov5's evolve bounds)</source>
      <translation>搜索的内容（yolov5 --evolve 的范围）</translation>
    </message>
    <message>
      <source>Wizard document</source>
      <translation>向导文档</translation>
    </message>
    <message>
      <source>as many as the budget allows</source>
      <translation>预算允许的最多数量</translation>
    </message>
    <message>
      <source>automatic (cpu or 0,1,…)</source>
      <translation>自动（cpu 或 0,1,…）</translation>
    </message>
    <message>
      <source>completed</source>
      <translation>已完成</translation>
    </message>
    <message>
      <source>linear</source>
      <translation>线性</translation>
    </message>
    <message>
      <source>logarithmic</source>
      <translation>对数</translation>
    </message>
    <message>
      <source>optional: a saved wizard document</source>
      <translation>可选：已保存的向导文档</translation>
    </message>
    <message>
      <source>stopped (Resume continues it; or yolostudio tune … --resume {name})</source>
      <translation>已停止（“继续搜索”可接着运行；或 yolostudio tune … --resume {name}）</translation>
    </message>
    <message>
      <source>the best trial of search {name}</source>
      <translation>搜索 {name} 的最佳试验</translation>
    </message>
    <message>
      <source>the dataset's data.yaml</source>
      <translation>数据集的 data.yaml</translation>
    </message>
    <message>
      <source>{file} holds no measured epoch time (save it with yolostudio wizard … --save FILE).</source>
      <translation>{file} 中没有实测的每轮时间（用 yolostudio wizard … --save FILE 保存）。</translation>
    </message>
    <message>
      <source>{trials} trials, {slots} side by side, within {hours:g} h.</source>
      <translation>{trials} 个试验，{slots} 个并行，在 {hours:g} 小时内。</translation>
    </message>
  </context>
  <context>
    <name>ValImages</name>
    <message>
      <source>Could not read the validation picture: {reason}</source>
      <translation>无法读取验证图片：{reason}</translation>
    </message>
    <message>
      <source>Validation pictures appear here once yolov5 draws them.</source>
      <translation>yolov5 绘制验证图片后，它们会显示在这里。</translation>
    </message>
    <message>
      <source>{file}: predictions on validation images (written {time})</source>
      <translation>{file}：在验证图片上的预测（写于 {time}）</translation>
    </message>
    <message>
      <source>{file}: predictions on validation images, after epoch {epoch} (written {time})</source>
      <translation>{file}：第 {epoch} 轮后在验证图片上的预测（写于 {time}）</translation>
    </message>
  </context>
  <context>
    <name>WeightsDialog</name>
    <message>
      <source>&amp;Cancel download</source>
      <translation>取消下载(&amp;C)</translation>
    </message>
    <message>
      <source>&amp;Get…</source>
      <translation>获取(&amp;G)…</translation>
    </message>
    <message>
      <source>&amp;Import…</source>
      <translation>导入(&amp;I)…</translation>
    </message>
    <message>
      <source>&amp;Remove</source>
      <translation>删除(&amp;R)</translation>
    </message>
    <message>
      <source>A checkpoint is still arriving: cancel the download first (Get resumes it later).</source>
      <translation>检查点仍在下载：请先取消下载（之后“获取”可以接着下载）。</translation>
    </message>
    <message>
      <source>Add a .pt you downloaded elsewhere (asks whether you trust it)</source>
      <translation>添加你在别处下载的 .pt（会询问是否信任）</translation>
    </message>
    <message>
      <source>COCO val2017 mAP@0.5:0.95 (YOLOv5 v7.0 README)</source>
      <translation>COCO val2017 mAP@0.5:0.95（YOLOv5 v7.0 README）</translation>
    </message>
    <message>
      <source>Cancelled. The part already downloaded is kept: Get resumes it.</source>
      <translation>已取消。已下载的部分会保留：“获取”会接着下载。</translation>
    </message>
    <message>
      <source>Cancelling…</source>
      <translation>正在取消…</translation>
    </message>
    <message>
      <source>Checking {name}: loading it as a YOLOv5 checkpoint…</source>
      <translation>正在检查 {name}：作为 YOLOv5 检查点加载…</translation>
    </message>
    <message>
      <source>Checkpoints</source>
      <translation>检查点</translation>
    </message>
    <message>
      <source>Connecting to {host}…</source>
      <translation>正在连接 {host}…</translation>
    </message>
    <message>
      <source>Copying {path}…</source>
      <translation>正在复制 {path}…</translation>
    </message>
    <message>
      <source>Could not remove {name}: {reason}</source>
      <translation>无法删除 {name}：{reason}</translation>
    </message>
    <message>
      <source>Delete {path} from the weights store? Runs that were trained from it keep their own weights; a later training that names it needs it again.</source>
      <translation>从权重库中删除 {path} 吗？用它训练过的训练会保留它们自己的权重；以后指定它的训练需要重新获取。</translation>
    </message>
    <message>
      <source>Download the selected checkpoint from the official release (asks first)</source>
      <translation>从官方发布页面下载所选的检查点（会先询问）</translation>
    </message>
    <message>
      <source>Downloading {name}: {progress}</source>
      <translation>正在下载 {name}：{progress}</translation>
    </message>
    <message>
      <source>Import a checkpoint</source>
      <translation>导入检查点</translation>
    </message>
    <message>
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>On this machine</source>
      <translation>本机状态</translation>
    </message>
    <message>
      <source>Pretrained weights</source>
      <translation>预训练权重</translation>
    </message>
    <message>
      <source>PyTorch checkpoints (*.pt)</source>
      <translation>PyTorch 检查点 (*.pt)</translation>
    </message>
    <message>
      <source>Remove {name}?</source>
      <translation>删除 {name} 吗？</translation>
    </message>
    <message>
      <source>Size</source>
      <translation>大小</translation>
    </message>
    <message>
      <source>The official YOLOv5 v7.0 checkpoints, pretrained on COCO (80 classes). Fine-tuning from one reaches a useful mAP on a few hundred images in tens of epochs; training from scratch needs hundreds. YOLO Studio downloads only when you click Get, from {base}.</source>
      <translation>官方 YOLOv5 v7.0 检查点，在 COCO（80 个类别）上预训练。从它微调，几百张图片在几十轮内就能达到可用的 mAP；从头训练则需要几百轮。只有在你点击“获取”时，YOLO Studio 才会从 {base} 下载。</translation>
    </message>
    <message>
      <source>What it is for</source>
      <translation>用途</translation>
    </message>
    <message>
      <source>{name} is already in the weights store. Remove it first, or rename the file you import.</source>
      <translation>权重库中已有 {name}。请先删除它，或把要导入的文件改名。</translation>
    </message>
    <message>
      <source>{name} is on this machine: {path}</source>
      <translation>{name} 已在本机：{path}</translation>
    </message>
  </context>
  <context>
    <name>WeightsOperations</name>
    <message>
      <source>Reading the weights store</source>
      <translation>读取权重库</translation>
    </message>
    <message>
      <source>Removing {name}</source>
      <translation>删除 {name}</translation>
    </message>
  </context>
  <context>
    <name>WindowGuard</name>
    <message>
      <source>YOLO Studio is already open</source>
      <translation>YOLO Studio 已经打开</translation>
    </message>
    <message>
      <source>YOLO Studio is already open on the workspace {workspace} (process {pid}); that window was brought to the front. One window per workspace keeps its runs and datasets in one place — to work on another workspace at the same time, start the app with --workspace FOLDER.</source>
      <translation>YOLO Studio 已在工作区 {workspace} 上打开（进程 {pid}），已将该窗口切换到最前面。每个工作区只开一个窗口，训练记录和数据集才不会分散在两处——如需同时处理另一个工作区，请用 --workspace FOLDER 启动应用。</translation>
    </message>
  </context>
  <context>
    <name>WizardPage</name>
    <message>
      <source>&amp;Next &gt;</source>
      <translation>下一步(&amp;N) &gt;</translation>
    </message>
    <message>
      <source>&amp;Prepare the resized copy</source>
      <translation>准备缩放副本(&amp;P)</translation>
    </message>
    <message>
      <source>&amp;Train with these settings</source>
      <translation>用这些设置训练(&amp;T)</translation>
    </message>
    <message>
      <source>1  Hardware</source>
      <translation>1  硬件</translation>
    </message>
    <message>
      <source>2  Dataset</source>
      <translation>2  数据集</translation>
    </message>
    <message>
      <source>3  Goal</source>
      <translation>3  目标</translation>
    </message>
    <message>
      <source>4  Measure</source>
      <translation>4  测量</translation>
    </message>
    <message>
      <source>5  Review</source>
      <translation>5  结果</translation>
    </message>
    <message>
      <source>&lt; &amp;Back</source>
      <translation>&lt; 上一步(&amp;B)</translation>
    </message>
    <message>
      <source>Cannot read the dataset: {reason}</source>
      <translation>无法读取数据集：{reason}</translation>
    </message>
    <message>
      <source>Cannot start measuring: {reason}</source>
      <translation>无法开始测量：{reason}</translation>
    </message>
    <message>
      <source>Checking the dataset</source>
      <translation>正在检查数据集</translation>
    </message>
    <message>
      <source>Checking the dataset…</source>
      <translation>正在检查数据集…</translation>
    </message>
    <message>
      <source>Choose a dataset first (step 2).</source>
      <translation>请先选择数据集（第 2 步）。</translation>
    </message>
    <message>
      <source>Choose the data.yaml to train on.</source>
      <translation>选择用于训练的 data.yaml。</translation>
    </message>
    <message>
      <source>Choose the dataset's data.yaml</source>
      <translation>选择数据集的 data.yaml</translation>
    </message>
    <message>
      <source>Copied.</source>
      <translation>已复制。</translation>
    </message>
    <message>
      <source>Dataset (*.yaml *.yml)</source>
      <translation>数据集 (*.yaml *.yml)</translation>
    </message>
    <message>
      <source>Measures what this machine can feed and compute, then recommends batch, workers, cache, image size and model — each with its reason.</source>
      <translation>测量本机能供给多少数据、算得多快，然后推荐批大小、加载进程、缓存、图片尺寸和模型——每项都附理由。</translation>
    </message>
    <message>
      <source>Measuring failed: {reason}. The settings it would have decided are estimated.</source>
      <translation>测量失败：{reason}。本应由测量决定的设置改为估算。</translation>
    </message>
    <message>
      <source>Preparing the copy failed: {reason}</source>
      <translation>准备副本失败：{reason}</translation>
    </message>
    <message>
      <source>Preparing the resized copy</source>
      <translation>正在准备缩放副本</translation>
    </message>
    <message>
      <source>Reading this machine</source>
      <translation>正在读取本机信息</translation>
    </message>
    <message>
      <source>Recommending the settings</source>
      <translation>正在推荐设置</translation>
    </message>
    <message>
      <source>The Train page is not available here.</source>
      <translation>这里无法使用训练页面。</translation>
    </message>
    <message>
      <source>Wizard</source>
      <translation>向导</translation>
    </message>
    <message>
      <source>Wizard steps</source>
      <translation>向导步骤</translation>
    </message>
    <message>
      <source>cancelled</source>
      <translation>已取消</translation>
    </message>
    <message>
      <source>skipped</source>
      <translation>已跳过</translation>
    </message>
    <message>
      <source>the measure job failed</source>
      <translation>测量任务失败</translation>
    </message>
    <message>
      <source>{path} does not exist.</source>
      <translation>{path} 不存在。</translation>
    </message>
  </context>
  <context>
    <name>WizardPrediction</name>
    <message>
      <source>Before the run, the wizard chose {choices} in its {step} step: {why} This run measured otherwise — the verdict above is the one to go by.</source>
      <translation>训练开始前，向导在“{step}”步骤中选择了 {choices}：{why} 本次训练的实测结果不同——以上方的判断为准。</translation>
    </message>
    <message>
      <source>Dataset</source>
      <translation>数据集</translation>
    </message>
    <message>
      <source>Goal</source>
      <translation>目标</translation>
    </message>
    <message>
      <source>Hardware</source>
      <translation>硬件</translation>
    </message>
    <message>
      <source>Measure</source>
      <translation>测量</translation>
    </message>
    <message>
      <source>Why? Open the &amp;wizard</source>
      <translation>为什么？打开向导(&amp;W)</translation>
    </message>
    <message>
      <source>Wizard predicted {rate:.0f} images/s and {epoch} per epoch — measured {mrate} and {mepoch}.</source>
      <translation>向导预测 {rate:.0f} 张/秒、每轮 {epoch}——实测 {mrate}、{mepoch}。</translation>
    </message>
    <message>
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <source>{field} = {value}</source>
      <translation>{field} = {value}</translation>
    </message>
    <message>
      <source>{rate:.0f} images/s</source>
      <translation>{rate:.0f} 张/秒</translation>
    </message>
    <message>
      <source>… images/s</source>
      <translation>… 张/秒</translation>
    </message>
  </context>
  <context>
    <name>WizardReview</name>
    <message>
      <source>&amp;Copy command</source>
      <translation>复制命令(&amp;C)</translation>
    </message>
    <message>
      <source>* estimated (not measured here): {names}</source>
      <translation>* 估算值（未在本机测量）：{names}</translation>
    </message>
    <message>
      <source>, </source>
      <translation>、</translation>
    </message>
    <message>
      <source>Chosen in the {step} step.</source>
      <translation>在“{step}”步骤中选定。</translation>
    </message>
    <message>
      <source>Command</source>
      <translation>命令</translation>
    </message>
    <message>
      <source>Command to copy</source>
      <translation>要复制的命令</translation>
    </message>
    <message>
      <source>Dataset</source>
      <translation>数据集</translation>
    </message>
    <message>
      <source>Estimated: the measurement it needs was not made here.</source>
      <translation>估算值：所需的测量未在本机进行。</translation>
    </message>
    <message>
      <source>Evidence</source>
      <translation>依据</translation>
    </message>
    <message>
      <source>Goal</source>
      <translation>目标</translation>
    </message>
    <message>
      <source>Hardware</source>
      <translation>硬件</translation>
    </message>
    <message>
      <source>Measure</source>
      <translation>测量</translation>
    </message>
    <message>
      <source>Not measured — {step}: {why}</source>
      <translation>未测量——{step}：{why}</translation>
    </message>
    <message>
      <source>Predicted: {rate:.0f} images/s · {epoch} per epoch · {total} for {epochs} epochs</source>
      <translation>预测：{rate:.0f} 张/秒 · 每轮 {epoch} · {epochs} 轮共 {total}</translation>
    </message>
    <message>
      <source>Recommended settings</source>
      <translation>推荐设置</translation>
    </message>
    <message>
      <source>Run it elsewhere:</source>
      <translation>在别处运行：</translation>
    </message>
    <message>
      <source>Setting</source>
      <translation>设置</translation>
    </message>
    <message>
      <source>Value</source>
      <translation>值</translation>
    </message>
    <message>
      <source>Why</source>
      <translation>理由</translation>
    </message>
    <message>
      <source>nohup (keeps training after an SSH session ends)</source>
      <translation>nohup（SSH 会话结束后继续训练）</translation>
    </message>
    <message>
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <source>plain yolov5 train</source>
      <translation>原生 yolov5 train</translation>
    </message>
    <message>
      <source>prepare the resized copy first</source>
      <translation>先准备缩放副本</translation>
    </message>
    <message>
      <source>torchrun: elastic, the same command on every machine</source>
      <translation>torchrun：弹性模式，每台机器用同一条命令</translation>
    </message>
    <message>
      <source>torchrun: every GPU of this machine (DDP)</source>
      <translation>torchrun：本机所有 GPU（DDP）</translation>
    </message>
    <message>
      <source>torchrun: one command per machine</source>
      <translation>torchrun：每台机器一条命令</translation>
    </message>
    <message>
      <source>yolostudio train</source>
      <translation>yolostudio train</translation>
    </message>
  </context>
  <context>
    <name>YamlEditor</name>
    <message>
      <source>Error at line {line}, column {column}: {message}</source>
      <translation>第 {line} 行第 {column} 列出错：{message}</translation>
    </message>
    <message>
      <source>The YAML parses.</source>
      <translation>YAML 解析正常。</translation>
    </message>
    <message>
      <source>data.yaml text</source>
      <translation>data.yaml 文本</translation>
    </message>
  </context>
</TS>
