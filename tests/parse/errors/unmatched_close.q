% One ')' too many (as in the PDF of seed 003).
nblocks = (numel(x)+blkdim-1)/blkdim)
z = 1
