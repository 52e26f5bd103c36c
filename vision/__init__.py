"""Frames in, observations out: sources, QR decoding, calibration, lattice fitting, colour pegs, tracking,
and the synthetic table renderer."""
