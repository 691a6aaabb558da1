"""The import path ``rulec.runtime.signing`` that earlier documentation named; signature
checks live in ``rulec.runtime.bundle.signing``."""

from rulec.runtime.bundle.signing import INSTALL_HINT as INSTALL_HINT
from rulec.runtime.bundle.signing import MAX_KEY_FILE_BYTES as MAX_KEY_FILE_BYTES
from rulec.runtime.bundle.signing import SignatureStatus as SignatureStatus
from rulec.runtime.bundle.signing import TrustedKey as TrustedKey
from rulec.runtime.bundle.signing import check_signature as check_signature
from rulec.runtime.bundle.signing import crypto as crypto
from rulec.runtime.bundle.signing import key_id_of as key_id_of
from rulec.runtime.bundle.signing import load_public_key as load_public_key
from rulec.runtime.bundle.signing import read_key_file as read_key_file
