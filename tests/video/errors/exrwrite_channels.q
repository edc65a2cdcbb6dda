% EXPECT: 1 exrwrite: an image is a matrix or a cube of 1 to 4 channels
function [] = main(dir : string = ".")
    exrwrite(dir + "/c.exr", ones(2, 3, 5))
endfunction
