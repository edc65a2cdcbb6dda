% EXPECT: 1 exrread: cannot (open 'tests/errors/exrread_not_exr\.q': .*not an image file|load libOpenEXR)
% A file that is no EXR image (this program) is refused with OpenEXR's reason.
img = exrread("tests/errors/exrread_not_exr.q")
