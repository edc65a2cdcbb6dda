% CHECK: parse-only (fragment: statement1, statement2 are placeholders of the text)
% From seed 003 (10 Parallel programming examples), lines 17: several statements in a lambda
% REPAIR: curly quotes (’) from the PDF written as plain apostrophes
% REPAIR: the document elides further statements with '...'; written as 'statement3'
kernel_lambda = __kernel__ (y:cube'unchecked) -> (statement1; statement2; statement3)
