//! LitMotion-style typed motions, punch and shake, and sequences. (Being built.)
