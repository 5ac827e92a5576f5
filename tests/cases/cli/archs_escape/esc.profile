# the file's own text goes to a terminal escaped
profile esc
description made up [2Jÿ here
banks 32
bank_bytes 4
source t]0;x measured [1mnowhereÃ
 rule ld 4 phase=32 source=t]0;x
