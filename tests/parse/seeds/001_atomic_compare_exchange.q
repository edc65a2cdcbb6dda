% CHECK: parse-only (fragment: a, expected_val, new_val are placeholders of the text)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 184: atomic compare and exchange
old_val = (a[0] <- (expected_val, new_val))
