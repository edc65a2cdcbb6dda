% EXPECT: 1 ^tests/errors/syntax_error\.q:3:9: error: 
% a binary operator without its left operand
y = 1 + * 2
