% One ')' too many (as in the PDF of seed 003).
nblocks = (numel(x)+blkdim-1)/blkdim)
z = 1
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
