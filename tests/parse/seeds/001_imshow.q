% From seed 001 (Quasar - CUDA Support GUIDE), lines 802-803: OpenGL display
im = imread("image.png")
imshow(im)
