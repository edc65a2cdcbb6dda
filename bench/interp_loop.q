% Interpreter speed: 10 million iterations of a simple scalar loop body.
% The foundation issue asks for well under a second. Run it with --no-parloop: otherwise
% the first loop is a parallel reduction (a kernel), not interpreted.
function [] = main()
    tic()
    s = 0.0
    for i = 0..9999999
        s += i * 0.5
    endfor
    toc("10M scalar iterations")
    tic()
    n = 0
    k = 0
    while k < 10000000
        n = n + mod(k, 7)
        k += 1
    endwhile
    toc("10M int while iterations")
    print s, " ", n
endfunction
