"""Camera frames as pictures: the evidence photo stored with a move, and the live frame with what vision
read drawn over it."""

from __future__ import annotations

import threading
from typing import Any

import cv2
import numpy as np

from vision.observation import Observation

#: evidence photos are stored at most about this wide (pixels; subsampled by a whole step)
PHOTO_WIDTH = 1280
#: what a frame that is not a picture (a scene from the ideal camera, a broken array) raises when encoded
NOT_A_PICTURE = (cv2.error, ValueError, TypeError, AttributeError, IndexError)


def is_picture(frame: Any) -> bool:
    return isinstance(frame, np.ndarray) and frame.ndim in (2, 3) and frame.size > 0


def photo_jpeg(frame: Any, max_width: int = PHOTO_WIDTH) -> bytes | None:
    """The evidence photo of a commit: the frame as JPEG, at most about ``max_width`` pixels wide (a smaller
    photo encodes in a few milliseconds and keeps the store small); None for what is not a picture."""
    if not is_picture(frame):
        return None
    step = -(-frame.shape[1] // max_width)  # a whole step down: plenty for evidence
    try:
        if step > 1:  # cv2's area average: about 8x faster than copying a strided numpy view, and smoother
            size = (frame.shape[1] // step, frame.shape[0] // step)
            frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    except NOT_A_PICTURE:  # a photo is evidence, not the game: never fail a commit over it
        return None
    return bytes(data) if ok else None


def frame_jpeg(frame: Any, observation: Observation | None, annotated: bool = True) -> bytes | None:
    """The camera frame as JPEG, with the tags and pegs vision read drawn over it when ``annotated``."""
    if not is_picture(frame):
        return None
    image = frame.copy() if annotated else frame
    try:
        if annotated and observation is not None:
            draw_observation(image, observation)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    except NOT_A_PICTURE:
        return None
    return bytes(data) if ok else None


def draw_observation(image: np.ndarray, observation: Observation) -> None:
    """Draw tags (outline and id) and pegs over a camera frame, in place."""
    for component_id, tag in observation.tags.items():
        corners = np.array(tag.corners_px, dtype=np.int32).reshape(-1, 1, 2)
        colour = (60, 200, 60) if tag.face == "front" else (200, 160, 60)
        cv2.polylines(image, [corners], True, colour, 2)
        x, y = (int(v) for v in tag.center_px)
        cv2.putText(
            image, component_id, (x + 6, y - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1, cv2.LINE_AA
        )
    for peg in observation.pegs:
        if peg.center_px is not None:
            x, y = (int(v) for v in peg.center_px)
            cv2.circle(image, (x, y), 8, (255, 255, 255), 2)


class SharedJpeg:
    """The live frame as JPEG, encoded once for every browser that asks: one encoding at a time (a burst of
    requests waits for it, then shares it), kept until the next frame or observation (a full-size frame's
    copy and encoding cost tens of megabytes: never one per request)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[bool, tuple[Any, Any, bytes | None]] = {}

    def get(self, frame: Any, observation: Observation | None, annotated: bool = True) -> bytes | None:
        with self._lock:
            kept = self._kept.get(annotated)
            if kept is not None and kept[0] is frame and kept[1] is observation:
                return kept[2]
            data = frame_jpeg(frame, observation, annotated)
            self._kept[annotated] = (frame, observation, data)
            return data
