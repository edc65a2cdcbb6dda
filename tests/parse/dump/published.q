% Syntax of published Quasar programs (QUASAR-NOTES.md; docs/parser.md, "Published forms")
y = denoise(img, img, half_search : int, h : scalar)
small = imresize(I : mat, 1/s, "nearest")
slider.onchange.add(() -> (p.th1 = slider.value;))
params.a : scalar = 1.45
params.b : int
int pw = 5
scalar x = 1
if a~=0
    b = a ~= 1
end
x ~= m
r = (v[0] ~= m)
beta = 2*3^2,
print beta, pw,
s = "H:\out\"
function [] __kernel__ k(y : vec, pos : int)
    y[pos] = 0
end
disp.subplot(1,3,0)
disp[0] = 1
print [1, 2]
