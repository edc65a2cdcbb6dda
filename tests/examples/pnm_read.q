% oq run tests/examples/pnm_read.q FILE: reads FILE (tests/examples/run.sh feeds it broken
% netpbm files: each must be an error that names the file and the reason).
function [] = main(path : string)
    x = imread(path)
    print size(x)
endfunction
