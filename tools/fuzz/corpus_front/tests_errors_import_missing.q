% EXPECT: 1 ^tests/errors/import_missing\.q:3:(1|8): (runtime )?error: .*does_not_exist\.q
% a module that is not there
import "does_not_exist.q"
