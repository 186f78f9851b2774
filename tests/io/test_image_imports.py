"""The screenshot reader's modules load without the `image` extra: it is imported on reading."""

from __future__ import annotations

import subprocess
import sys

MODULES = ["read", "decode", "grid", "regions", "debug"]


def test_the_image_modules_import_no_picture_library() -> None:
    code = (
        "import sys; "
        + "; ".join(f"import starbattle.io.image.{name}" for name in MODULES)
        + "; print(sorted({'numpy', 'cv2', 'PIL'} & set(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"
