% EXPECT: 1 ^tests/errors/type_scalar_to_cube\.q:7:(5|6|7): (runtime )?error: .*(mismatch|type|cube)
function y = f(x : cube)
    y = numel(x)
endfunction

% a scalar where a cube is declared
y = f(3.5)
