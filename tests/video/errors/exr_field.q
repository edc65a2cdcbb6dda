% EXPECT: 1 an EXR image has no field 'pixels' \(data, width, height, channels\)
function [] = main(dir : string = ".")
    exrwrite(dir + "/f.exr", ones(2, 3))
    p = exrread(dir + "/f.exr").pixels
endfunction
