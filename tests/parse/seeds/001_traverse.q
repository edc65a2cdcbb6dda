% From seed 001 (Quasar - CUDA Support GUIDE), lines 102-104: special kernel parameters
% REPAIR: the document elides the body with '...'; written as the comment '% ...'
function [] = __kernel__ traverse(pos, blkpos, blkdim, blkidx)
   % ...
endfunction
