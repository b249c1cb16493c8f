// OpenSSL's libcrypto, for HMAC-SHA1 (thumbor's URL signatures, issue 26): the one-shot HMAC() and EVP_sha1().
#include <openssl/evp.h>
#include <openssl/hmac.h>
