% EXPECT: 1 ^tests/errors/macro_target_unknown\.q:3:(4|12): error: unknown target "fpga"
x = 1
if $target("fpga")
    x = 2
endif
