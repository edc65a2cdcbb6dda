% CHECK: parse-only (fragment: a, new_val are placeholders of the text)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 180: atomic exchange
old_val = (a[0] <- new_val)
