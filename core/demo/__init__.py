"""The demo dataset: its spec (``spec``, numpy-free), the drawn images (``images``, numpy + Pillow) and the
dataset folder made from them (``dataset``). Nothing is imported here, so the GUI pays for numpy only when it
draws."""
