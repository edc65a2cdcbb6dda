% A library module with its own test main() (as library modules often carry): importing it
% must never run this main() (tests/lang/import_main.q, import_no_main.q).
function y = triple(x)
    y = 3 * x
end

function [] = main()
    error("the imported module's main() ran")
end
