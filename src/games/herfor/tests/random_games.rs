//! Random games over every size and variant, checked ply by ply against the reference.
