"""The training run's rules: its options, declared once (``options``), the checked config and worker spec
(``config``), DDP's rules (``distributed``), the hyperparameter file and model YAML checks, the data-loader
bottleneck rules and the words for yolov5's failures (``errors``)."""
