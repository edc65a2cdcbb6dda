% EXPECT: 1 ^tests/errors/syntax_stray_end\.q:4:1: error: .*endfor
% a block end without its block
x = 1
endfor
