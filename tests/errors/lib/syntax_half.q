% A module with a syntax error: what parses (half) is still imported.
function y = half(x)
    y = x / 2
end
z = (1 +
