% EXPECT: 1 exrread: cannot open 'no_such_image\.exr': No such file or directory
img = exrread("no_such_image.exr").data
