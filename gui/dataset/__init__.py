"""The Dataset feature: the Dataset page, its sources, form, findings, gallery, statistics, YAML editor, dialogs and the prepare action."""
