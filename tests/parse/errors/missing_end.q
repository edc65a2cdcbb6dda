% A function whose end is missing: reported at the end of the file, naming the opener.
function y = f(x)
    for i = 0..3
        y = x + i
    endfor
