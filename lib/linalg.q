% linalg.q: Quasar's linear-algebra module: the matrix product '*', transpose, sum, prod,
%   cumsum, reshape and repmat are built into OpenQuasar; svd, symeig and the solvers are not
%   provided yet.
% import "linalg.q" finds this file in OpenQuasar's lib/ folder, so published programs that
% import it run unchanged; it defines nothing of its own yet.
