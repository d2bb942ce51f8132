#include "app/serve.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace fl::app {

namespace {

// ---- the request: a small JSON reader (objects, arrays, strings, numbers, literals) -----------

struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool b = false;
    double n = 0;
    std::string s;
    std::vector<Json> items;
    // an object's fields: keys[i] names values[i] (a vector of pairs of the incomplete Json is
    // refused by clang with libstdc++ 12 in C++20)
    std::vector<std::string> keys;
    std::vector<Json> values;
    const Json* get(const std::string& key) const {
        for (size_t i = 0; i < keys.size(); ++i)
            if (keys[i] == key) return &values[i];
        return nullptr;
    }
};

class Reader {
public:
    explicit Reader(const std::string& text) : t_(text) {}
    bool parse(Json& out) {
        if (!value(out)) return false;
        space();
        return i_ == t_.size();
    }

private:
    const std::string& t_;
    size_t i_ = 0;

    void space() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\r' || t_[i_] == '\n')) ++i_;
    }
    bool literal(const char* word) {
        size_t n = std::strlen(word);
        if (t_.compare(i_, n, word) != 0) return false;
        i_ += n;
        return true;
    }
    static void utf8(std::string& s, unsigned c) {
        if (c < 0x80) s += char(c);
        else if (c < 0x800) s += char(0xC0 | (c >> 6)), s += char(0x80 | (c & 0x3F));
        else if (c < 0x10000) s += char(0xE0 | (c >> 12)), s += char(0x80 | ((c >> 6) & 0x3F)), s += char(0x80 | (c & 0x3F));
        else s += char(0xF0 | (c >> 18)), s += char(0x80 | ((c >> 12) & 0x3F)), s += char(0x80 | ((c >> 6) & 0x3F)), s += char(0x80 | (c & 0x3F));
    }
    bool hex4(unsigned& c) {
        if (i_ + 4 > t_.size()) return false;
        c = 0;
        for (int k = 0; k < 4; ++k) {
            char h = t_[i_++];
            c = c * 16 + unsigned(h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : 99);
            if (c >= 0x10000) return false;
        }
        return true;
    }
    bool string(std::string& s) {
        if (i_ >= t_.size() || t_[i_] != '"') return false;
        ++i_;
        while (i_ < t_.size() && t_[i_] != '"') {
            char c = t_[i_++];
            if (c != '\\') { s += c; continue; }
            if (i_ >= t_.size()) return false;
            char e = t_[i_++];
            switch (e) {
            case '"': s += '"'; break;
            case '\\': s += '\\'; break;
            case '/': s += '/'; break;
            case 'b': s += '\b'; break;
            case 'f': s += '\f'; break;
            case 'n': s += '\n'; break;
            case 'r': s += '\r'; break;
            case 't': s += '\t'; break;
            case 'u': {
                unsigned c1 = 0, c2 = 0;
                if (!hex4(c1)) return false;
                if (c1 >= 0xD800 && c1 < 0xDC00 && t_.compare(i_, 2, "\\u") == 0) {
                    i_ += 2;
                    if (!hex4(c2) || c2 < 0xDC00 || c2 >= 0xE000) return false;
                    c1 = 0x10000 + ((c1 - 0xD800) << 10) + (c2 - 0xDC00);
                }
                utf8(s, c1);
                break;
            }
            default: return false;
            }
        }
        if (i_ >= t_.size()) return false;
        ++i_;
        return true;
    }
    bool value(Json& v) {
        space();
        if (i_ >= t_.size()) return false;
        char c = t_[i_];
        if (c == '"') { v.kind = Json::String; return string(v.s); }
        if (c == '{') {
            v.kind = Json::Object;
            ++i_;
            space();
            if (i_ < t_.size() && t_[i_] == '}') { ++i_; return true; }
            for (;;) {
                space();
                std::string key;
                if (!string(key)) return false;
                space();
                if (i_ >= t_.size() || t_[i_++] != ':') return false;
                Json item;
                if (!value(item)) return false;
                v.keys.push_back(std::move(key));
                v.values.push_back(std::move(item));
                space();
                if (i_ < t_.size() && t_[i_] == ',') { ++i_; continue; }
                if (i_ < t_.size() && t_[i_] == '}') { ++i_; return true; }
                return false;
            }
        }
        if (c == '[') {
            v.kind = Json::Array;
            ++i_;
            space();
            if (i_ < t_.size() && t_[i_] == ']') { ++i_; return true; }
            for (;;) {
                Json item;
                if (!value(item)) return false;
                v.items.push_back(std::move(item));
                space();
                if (i_ < t_.size() && t_[i_] == ',') { ++i_; continue; }
                if (i_ < t_.size() && t_[i_] == ']') { ++i_; return true; }
                return false;
            }
        }
        if (literal("true")) { v.kind = Json::Bool; v.b = true; return true; }
        if (literal("false")) { v.kind = Json::Bool; return true; }
        if (literal("null")) return true;
        const char* begin = t_.c_str() + i_;
        char* end = nullptr;
        v.n = std::strtod(begin, &end);
        if (end == begin) return false;
        v.kind = Json::Number;
        i_ += size_t(end - begin);
        return true;
    }
};

struct Request {
    std::vector<std::string> argv;
    std::optional<std::string> cwd;
    std::optional<std::vector<std::string>> env; // NAME=value
    double timeout = 0;
};

bool readRequest(const std::string& line, Request& r, std::string& why) {
    Json j;
    if (!Reader(line).parse(j) || j.kind != Json::Object) { why = "a request is one JSON object per line"; return false; }
    const Json* argv = j.get("argv");
    if (!argv || argv->kind != Json::Array) { why = "the request has no argv list"; return false; }
    for (auto& a : argv->items) {
        if (a.kind != Json::String) { why = "argv holds a value that is not a string"; return false; }
        r.argv.push_back(a.s);
    }
    if (const Json* cwd = j.get("cwd"); cwd && cwd->kind == Json::String) r.cwd = cwd->s;
    if (const Json* env = j.get("env"); env && env->kind == Json::Object) {
        r.env.emplace();
        for (size_t i = 0; i < env->keys.size(); ++i) {
            const std::string& k = env->keys[i];
            const Json& v = env->values[i];
            if (v.kind != Json::String || k.empty() || k.find('=') != std::string::npos) { why = "env holds a bad entry: " + k; return false; }
            r.env->push_back(k + "=" + v.s);
        }
    }
    if (const Json* t = j.get("timeout"); t && t->kind == Json::Number) r.timeout = t->n;
    return true;
}

// ---- the reply ---------------------------------------------------------------------------------

std::string base64(const std::string& in) {
    static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        unsigned v = (unsigned char)in[i] << 16 | (unsigned char)in[i + 1] << 8 | (unsigned char)in[i + 2];
        out += k[v >> 18], out += k[(v >> 12) & 63], out += k[(v >> 6) & 63], out += k[v & 63];
    }
    if (i + 1 == in.size()) {
        unsigned v = (unsigned char)in[i] << 16;
        out += k[v >> 18], out += k[(v >> 12) & 63], out += "==";
    } else if (i + 2 == in.size()) {
        unsigned v = (unsigned char)in[i] << 16 | (unsigned char)in[i + 1] << 8;
        out += k[v >> 18], out += k[(v >> 12) & 63], out += k[(v >> 6) & 63], out += '=';
    }
    return out;
}

std::string jsonString(const std::string& s) {
    std::string r = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') r += '\\', r += c;
        else if (c == '\n') r += "\\n";
        else if ((unsigned char)c < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); r += b; }
        else r += c;
    }
    return r + "\"";
}

bool writeAll(int fd, const std::string& s) {
    size_t done = 0;
    while (done < s.size()) {
        ssize_t n = write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += size_t(n);
    }
    return true;
}

std::string readAll(int fd) {
    std::string out;
    if (lseek(fd, 0, SEEK_SET) < 0) return out;
    char buf[1 << 16];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(buf, size_t(n));
    }
    return out;
}

// A file with no name that holds one stream of the child's output.
int outputFile(const char* name) {
    int fd = int(syscall(SYS_memfd_create, name, 0));
    if (fd >= 0) return fd;
    char path[] = "/tmp/fuselab-serve-XXXXXX";
    fd = mkstemp(path);
    if (fd >= 0) unlink(path);
    return fd;
}

int threadCount() {
    FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    int n = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "Threads:", 8) == 0) n = std::atoi(line + 8);
    std::fclose(f);
    return n;
}

// Waits for the child; kills its process group once `timeout` seconds have passed (0: never).
// Returns the wait status; timedOut says whether it was killed for time.
int waitChild(pid_t pid, double timeout, bool& timedOut) {
    timedOut = false;
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout > 0 ? timeout : 0);
    int pidfd = int(syscall(SYS_pidfd_open, pid, 0));
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) { status = 0; break; }
        int waitMs = -1;
        if (timeout > 0) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
            if (left <= 0) {
                timedOut = true;
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
                break;
            }
            waitMs = int(std::min<long long>(left, 1 << 30));
        }
        if (pidfd >= 0) {
            struct pollfd p{pidfd, POLLIN, 0};
            poll(&p, 1, waitMs);
        } else { // kernels before 5.3: poll the child
            std::this_thread::sleep_for(std::chrono::milliseconds(waitMs < 0 ? 5 : std::min(waitMs, 5)));
        }
    }
    if (pidfd >= 0) close(pidfd);
    return status;
}

[[noreturn]] void runChild(const Request& r, const char* program, MainFunction runMain, int outFd, int errFd, int replyFd) {
    setsid(); // its own session and process group, as the harnesses start fuselab (start_new_session)
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0);
    dup2(outFd, 1);
    dup2(errFd, 2);
    for (int fd : {null, outFd, errFd, replyFd})
        if (fd > 2) close(fd);
    if (r.cwd && chdir(r.cwd->c_str()) != 0) {
        std::fprintf(stderr, "fuselab --serve: cannot enter %s: %s\n", r.cwd->c_str(), std::strerror(errno));
        _exit(127);
    }
    if (r.env) {
        clearenv();
        for (const std::string& kv : *r.env) {
            size_t eq = kv.find('=');
            setenv(kv.substr(0, eq).c_str(), kv.c_str() + eq + 1, 1);
        }
    }
    signal(SIGPIPE, SIG_DFL);
    std::vector<std::string> args{program};
    args.insert(args.end(), r.argv.begin(), r.argv.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    exitProcess(runMain(int(args.size()), argv.data())); // as main ends a fresh process
}

} // namespace

void exitProcess(int code) {
#if defined(__SANITIZE_ADDRESS__)
    std::exit(code);
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    std::exit(code);
#endif
#endif
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(code);
}

int serve(const char* program, MainFunction runMain, void (*warm)()) {
    // Replies go to a descriptor of their own: the children's stdout is fd 1.
    int replyFd = dup(1);
    if (replyFd < 0) { std::perror("fuselab --serve"); return 1; }
    fcntl(replyFd, F_SETFD, FD_CLOEXEC);
    signal(SIGPIPE, SIG_IGN); // a client gone is a failed write, not a dead server
    // OpenBLAS (pthreads) starts its workers while it loads. Its pthread_atfork handler stops them
    // before every fork anyway, and a child starts them again on its first BLAS call, as a fresh
    // process has them; stopped now, the thread count below shows only threads a child would lose.
    if (auto stopBlasThreads = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "blas_thread_shutdown_"))) stopBlasThreads();
    if (warm) warm();
    bool warned = false;
    std::string pending;
    char buf[1 << 16];
    for (;;) {
        size_t nl = pending.find('\n');
        if (nl == std::string::npos) {
            ssize_t n = read(0, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return 0;
            pending.append(buf, size_t(n));
            continue;
        }
        std::string line = pending.substr(0, nl);
        pending.erase(0, nl + 1);
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        Request r;
        std::string why;
        if (!readRequest(line, r, why)) {
            if (!writeAll(replyFd, "{\"error\": " + jsonString(why) + "}\n")) return 1;
            continue;
        }
        // A thread alive here would be missing from the child, with whatever locks it held.
        if (int threads = threadCount(); threads > 1 && !warned) {
            std::fprintf(stderr, "fuselab --serve: %d threads before fork (want 1): a child may hang\n", threads);
            warned = true;
        }
        int outFd = outputFile("stdout"), errFd = outputFile("stderr");
        if (outFd < 0 || errFd < 0) {
            if (outFd >= 0) close(outFd);
            if (errFd >= 0) close(errFd);
            if (!writeAll(replyFd, "{\"error\": " + jsonString(std::string("no file for output: ") + std::strerror(errno)) + "}\n")) return 1;
            continue;
        }
        std::fflush(nullptr);
        pid_t pid = fork();
        if (pid == 0) runChild(r, program, runMain, outFd, errFd, replyFd);
        std::string reply;
        if (pid < 0) {
            reply = "{\"error\": " + jsonString(std::string("fork failed: ") + std::strerror(errno)) + "}\n";
        } else {
            bool timedOut = false;
            int status = waitChild(pid, r.timeout, timedOut);
            reply = WIFSIGNALED(status) ? "{\"signal\": " + std::to_string(WTERMSIG(status))
                                        : "{\"exit\": " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 255);
            reply += ", \"timed_out\": " + std::string(timedOut ? "true" : "false");
            reply += ", \"stdout\": \"" + base64(readAll(outFd)) + "\", \"stderr\": \"" + base64(readAll(errFd)) + "\"}\n";
        }
        close(outFd);
        close(errFd);
        if (!writeAll(replyFd, reply)) return 1;
    }
}

} // namespace fl::app
